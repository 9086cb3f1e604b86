//! Issue 19: the position readers must not be stricter than the text formats. Whatever a
//! format leaves unordered (castling letters, the labelled tokens and the visited states of
//! Dialectic, the discs of an Extreme 2D stack, the sections and items of the piece-list
//! forms, the Dai Mitregi hands) is read in any order, and the position is always written back
//! in one canonical order.
//!
//! Every test takes several valid texts per variant (the start, the `data/fen/*.valid` suites
//! and positions reached by seeded pseudo-random games), shuffles each unordered part with a
//! seeded shuffle, several permutations per text, reads the result and checks that it is the
//! same position: the same canonical text, hash and legal moves. Each test also insists that
//! the shuffles really changed some texts, so that it cannot pass vacuously.

mod common;

use common::sorted_move_texts;
use variantlab_engine::moves::MoveBuf;
use variantlab_engine::position::Position;
use variantlab_engine::variants::dai_mitregi::{DaiMitregi, DaiMitregiStepping};
use variantlab_engine::variants::dialectic::{Dialectic, DialecticHegelian};
use variantlab_engine::variants::extreme2d::Extreme2d;
use variantlab_engine::variants::gateway::Gateway;
use variantlab_engine::variants::{Chess, Dream46};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{Game, Move};

/// Permutations tried per position text.
const PERMUTATIONS: usize = 6;

/// The texts of `data/fen/<variant>.valid`.
fn valid_texts(variant: &str) -> Vec<String> {
    let path = format!("{}/../data/fen/{variant}.valid", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next() % n as u64) as usize
}

/// Seeded Fisher–Yates shuffle.
fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

fn shuffled_chars(s: &str, rng: &mut SplitMix64) -> String {
    let mut v: Vec<char> = s.chars().collect();
    shuffle(&mut v, rng);
    v.into_iter().collect()
}

/// The start, the suite texts and the positions every few plies of seeded random games, in
/// which a move that `favour` likes (a capture, a token step) is chosen half of the time.
fn positions<G: Game>(
    variant: &str,
    seed: u64,
    games: u64,
    plies: usize,
    favour: impl Fn(&G, Move) -> bool,
) -> Vec<G> {
    let mut out = vec![G::start()];
    for t in valid_texts(variant) {
        out.push(G::from_text(&t).unwrap_or_else(|e| panic!("{variant}: {t}: {e}")));
    }
    let mut moves = G::Moves::default();
    for g in 0..games {
        let mut rng = SplitMix64(seed + g);
        let mut p = G::start();
        for ply in 0..plies {
            moves.clear();
            p.legal_moves(&mut moves);
            let all = moves.as_ref();
            if all.is_empty() {
                break;
            }
            let liked: Vec<Move> = all.iter().copied().filter(|&m| favour(&p, m)).collect();
            let m = if !liked.is_empty() && rng.next() & 1 == 0 {
                liked[below(&mut rng, liked.len())]
            } else {
                all[below(&mut rng, all.len())]
            };
            p.play_unchecked(m);
            if ply % 3 == 2 {
                out.push(p.clone());
            }
        }
    }
    out
}

/// Reads `text` and checks that it is `p` written canonically as `want`.
fn same<G: Game>(variant: &str, p: &G, want: &str, text: &str) {
    let q = G::from_text(text)
        .unwrap_or_else(|e| panic!("{variant}: {text:?} (a reordering of {want:?}): {e}"));
    assert_eq!(q.to_text(), want, "{variant}: read from {text:?}");
    assert_eq!(q.hash(), p.hash(), "{variant}: hash of {text:?}");
    assert_eq!(
        sorted_move_texts(&q),
        sorted_move_texts(p),
        "{variant}: legal moves of {text:?}"
    );
}

/// Shuffles every position's text `PERMUTATIONS` times with `reorder`, reads each permutation
/// and checks it is the same position; returns how many permutations differed from the
/// canonical text.
fn check<G: Game>(
    variant: &str,
    seed: u64,
    positions: &[G],
    reorder: impl Fn(&str, &mut SplitMix64) -> String,
) -> usize {
    let mut rng = SplitMix64(seed);
    let mut changed = 0;
    for p in positions {
        let text = p.to_text();
        same(variant, p, &text, &text);
        for _ in 0..PERMUTATIONS {
            let t = reorder(&text, &mut rng);
            changed += usize::from(t != text);
            same(variant, p, &text, &t);
        }
    }
    changed
}

/// Replaces space-separated field `k` of `text` by `f(field)`.
fn map_field(
    text: &str,
    k: usize,
    rng: &mut SplitMix64,
    f: impl Fn(&str, &mut SplitMix64) -> String,
) -> String {
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    if let Some(x) = fields.get_mut(k) {
        *x = f(x, rng);
    }
    fields.join(" ")
}

/// A FEN castling field in any order (`-` stays).
fn shuffle_castling(field: &str, rng: &mut SplitMix64) -> String {
    if field == "-" {
        field.to_string()
    } else {
        shuffled_chars(field, rng)
    }
}

fn capture<G: Game>(p: &G, m: Move) -> bool {
    p.is_tactical(m)
}

fn error_of<G: Game>(text: &str) -> String {
    match G::from_text(text) {
        Ok(p) => panic!("{text:?} was accepted as {:?}", p.to_text()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn chess_castling_rights_in_any_order() {
    let ps = positions::<Position<Chess>>("chess", 0xc4e5, 30, 40, capture);
    let changed = check("chess", 1, &ps, |t, rng| {
        map_field(t, 2, rng, shuffle_castling)
    });
    assert!(changed > 20, "only {changed} permutations changed a text");
    let start = Position::<Chess>::start();
    let want = start.to_text();
    for rights in ["qkQK", "kqKQ", "QkqK", "KQkq"] {
        same(
            "chess",
            &start,
            &want,
            &want.replace(" KQkq ", &format!(" {rights} ")),
        );
    }
    // Still refused: a repeated right.
    let msg = error_of::<Position<Chess>>("r3k2r/8/8/8/8/8/8/R3K2R w KqK - 0 1");
    assert!(msg.contains("repeated"), "{msg}");
}

/// Dream Chess 46 has no castling or en passant field and nothing else the format leaves
/// unordered: the board is positional, the other fields are single values. The test pins that
/// the reader reads every canonical text back as the same position, so that a field added
/// later (and its order) gets a place here.
#[test]
fn dream46_has_nothing_unordered() {
    let ps = positions::<Position<Dream46>>("dream-chess-46", 0xd46, 30, 60, capture);
    let changed = check("dream-chess-46", 2, &ps, |t, _| t.to_string());
    assert_eq!(changed, 0);
    assert!(ps.len() > 100);
}

/// Dialectic texts: castling letters, the two labelled tokens (`TxyAxy` or `AxyTxy`) and the
/// visited states, each in any order.
fn reorder_dialectic(text: &str, rng: &mut SplitMix64) -> String {
    let t = map_field(text, 2, rng, shuffle_castling);
    let t = map_field(&t, 6, rng, |tokens, rng| {
        let (th, an) = tokens.split_at(3);
        if rng.next() & 1 == 0 {
            format!("{an}{th}")
        } else {
            tokens.to_string()
        }
    });
    map_field(&t, 7, rng, |v, rng| {
        let mut states: Vec<&str> = v[1..].split(',').collect();
        shuffle(&mut states, rng);
        format!("V{}", states.join(","))
    })
}

fn token_step<G: Game>(p: &G, m: Move) -> bool {
    matches!(p.move_text(m).as_bytes().first(), Some(b'T' | b'A' | b'S'))
}

fn dialectic_form<G: Game>(variant: &str, seed: u64) {
    let ps = positions::<G>(variant, seed, 40, 60, token_step);
    let with_visited = ps
        .iter()
        .filter(|p| {
            p.to_text()
                .split(' ')
                .nth(7)
                .is_some_and(|v| v.contains(','))
        })
        .count();
    assert!(
        with_visited > 20,
        "only {with_visited} positions with two or more visited states"
    );
    let changed = check(variant, seed, &ps, reorder_dialectic);
    assert!(changed > 100, "only {changed} permutations changed a text");

    // The example: the visited states in any order, written in the canonical one.
    let board = "rhbqkbhr/1ppppppp/8/p7/P3P3/3P2P1/1PP2P1P/RHBQKBHR w KQkq - 0 1";
    let want = format!("{board} T01A21 V0110,0120,0111");
    let p = G::from_text(&want).unwrap_or_else(|e| panic!("{want}: {e}"));
    assert_eq!(p.to_text(), want);
    for text in [
        format!("{board} T01A21 V0110,0111,0120"),
        format!("{board} T01A21 V0111,0120,0110"),
        format!("{board} A21T01 V0120,0110,0111"),
        "rhbqkbhr/1ppppppp/8/p7/P3P3/3P2P1/1PP2P1P/RHBQKBHR w qkQK - 0 1 A21T01 V0111,0110,0120"
            .to_string(),
    ] {
        same(variant, &p, &want, &text);
    }
    // Still refused: a repeated state, the current state, a repeated castling right, and a
    // token field without exactly one Thesis and one Antithesis.
    for (text, want) in [
        (format!("{board} T01A21 V0110,0110"), "distinct"),
        (format!("{board} T01A21 V0110,0121"), "not the current one"),
        (format!("{board} T01A21 V0121"), "not the current one"),
        (
            "rhbqkbhr/1ppppppp/8/p7/P3P3/3P2P1/1PP2P1P/RHBQKBHR w KQkK - 0 1 T01A21".to_string(),
            "repeated",
        ),
        (format!("{board} T01T21"), "TxyAxy"),
        (format!("{board} A01A21"), "TxyAxy"),
    ] {
        let msg = error_of::<G>(&text);
        assert!(msg.contains(want), "{text}: {msg}");
    }
}

#[test]
fn dialectic_castling_tokens_and_visited_in_any_order() {
    dialectic_form::<Dialectic>("dialectic", 0xd1a1_0000);
}

#[test]
fn dialectic_hegelian_castling_tokens_and_visited_in_any_order() {
    dialectic_form::<DialecticHegelian>("dialectic-hegelian", 0xd1a1_8000);
}

/// The stacks of an Extreme 2D board as `(white, role letter, powers, cell)`, read off the
/// compact text (ranks 10 down to 1, files a to j).
fn extreme2d_stacks(board: &str) -> Vec<(bool, char, String, String)> {
    let mut out = Vec::new();
    for (i, rank) in board.split('/').enumerate() {
        let r = 10 - i;
        let mut file = 0u8;
        let chars: Vec<char> = rank.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if c.is_ascii_digit() {
                let mut n = 0;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    n = n * 10 + chars[k].to_digit(10).unwrap_or(0);
                    k += 1;
                }
                file += n as u8;
                continue;
            }
            let discs: Vec<char> = if c == '[' {
                let close = k + chars[k..].iter().position(|&x| x == ']').expect("]");
                let d = chars[k + 1..close].to_vec();
                k = close + 1;
                d
            } else {
                k += 1;
                vec![c]
            };
            let owner = discs
                .iter()
                .copied()
                .find(|d| "PHKphk".contains(*d))
                .expect("ownership disc");
            let powers: String = discs.iter().filter(|&&d| d != owner).collect();
            let cell = format!("{}{r}", (b'a' + file) as char);
            out.push((
                owner.is_ascii_uppercase(),
                owner.to_ascii_uppercase(),
                powers,
                cell,
            ));
            file += 1;
        }
    }
    out
}

/// The rules file's piece-list form of an Extreme 2D text, with the sentences, the stacks of
/// each side and the discs of each stack shuffled.
fn extreme2d_list(text: &str, rng: &mut SplitMix64) -> String {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut sides = [Vec::new(), Vec::new()];
    for (white, role, powers, cell) in extreme2d_stacks(fields[0]) {
        let powers = shuffled_chars(&powers, rng);
        let item = match (role, powers.is_empty()) {
            ('P', true) => format!("P{cell}"),
            ('P', false) => format!("({powers}){cell}"),
            (_, true) => format!("{role}{cell}"),
            (_, false) => format!("{role}({powers}){cell}"),
        };
        sides[usize::from(!white)].push(item);
    }
    let mut sentences = Vec::new();
    for (name, items) in ["White", "Black"].iter().zip(&mut sides) {
        shuffle(items, rng);
        sentences.push(format!("{name}: {}.", items.join(", ")));
    }
    sentences.push(if fields[1] == "w" {
        "White to move.".to_string()
    } else {
        "Black to move.".to_string()
    });
    shuffle(&mut sentences, rng);
    sentences.join(" ")
}

/// The text with the clocks the piece-list forms imply (0 and 1).
fn default_clocks(text: &str) -> String {
    let fields: Vec<&str> = text.split(' ').collect();
    format!("{} {} 0 1", fields[0], fields[1])
}

#[test]
fn extreme2d_discs_and_piece_lists_in_any_order() {
    let ps = positions::<Extreme2d>("extreme-2d", 0xe2d, 40, 90, capture);
    let multi = ps
        .iter()
        .filter(|p| {
            extreme2d_stacks(p.to_text().split(' ').next().unwrap_or(""))
                .iter()
                .any(|s| s.2.len() >= 2 || (s.1 != 'P' && !s.2.is_empty()))
        })
        .count();
    assert!(multi > 20, "only {multi} positions with multi-disc stacks");
    // The compact form: the discs inside each bracket in any order, the ownership letter
    // included.
    let changed = check("extreme-2d", 3, &ps, |t, rng| {
        let mut out = String::new();
        let mut stack: Option<String> = None;
        for c in t.chars() {
            match (c, stack.as_mut()) {
                ('[', _) => stack = Some(String::new()),
                (']', Some(s)) => {
                    out += &format!("[{}]", shuffled_chars(s, rng));
                    stack = None;
                }
                (_, Some(s)) => s.push(c),
                (_, None) => out.push(c),
            }
        }
        out
    });
    assert!(changed > 200, "only {changed} permutations changed a text");
    // The piece-list form: sentences, stacks and discs in any order.
    let mut rng = SplitMix64(4);
    for p in &ps {
        let want = default_clocks(&p.to_text());
        for _ in 0..PERMUTATIONS {
            same(
                "extreme-2d",
                p,
                &want,
                &extreme2d_list(&p.to_text(), &mut rng),
            );
        }
    }
    let want = "9k/10/10/10/10/10/10/10/10/K[Prby]8 b 0 1";
    let p = Extreme2d::from_text(want).expect("reads");
    for text in [
        "9k/10/10/10/10/10/10/10/10/K[ybPr]8 b 0 1",
        "Black to move. Black: Kj10. White: (ybr)b1, Ka1.",
        "White: Ka1, (rby)b1. Black to move. Black: Kj10.",
    ] {
        same("extreme-2d", &p, want, text);
    }
}

/// The pieces of a Gateway compact text as `(white, letter, cell)`, the Quantum King as
/// `(white, 'K', row)`.
fn gateway_pieces(board: &str) -> Vec<(bool, char, String)> {
    let mut out = Vec::new();
    for (l, level) in board.split('|').enumerate() {
        let lv = (b'v' + l as u8) as char;
        for (i, rank) in level.split('/').enumerate() {
            let r = 10 - i;
            let files: &[u8] = if r == 3 || r == 8 { b"bc" } else { b"abcd" };
            let mut f = 0;
            for c in rank.chars() {
                if let Some(n) = c.to_digit(10) {
                    f += n as usize;
                    continue;
                }
                let white = c.is_ascii_uppercase();
                if c.eq_ignore_ascii_case(&'k') {
                    let row = format!("{lv}{r}");
                    if !out.contains(&(white, 'K', row.clone())) {
                        out.push((white, 'K', row));
                    }
                } else {
                    let cell = format!("{lv}{}{r}", files[f] as char);
                    out.push((white, c.to_ascii_uppercase(), cell));
                }
                f += 1;
            }
        }
    }
    out
}

/// The rules file's piece-list form of a Gateway text, with the sections and the pieces of
/// each side shuffled; the side to move stays last or comes first.
fn gateway_list(text: &str, rng: &mut SplitMix64) -> String {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut sides = [Vec::new(), Vec::new()];
    for (white, letter, cell) in gateway_pieces(fields[0]) {
        sides[usize::from(!white)].push(format!("{letter}{cell}"));
    }
    let mut sentences = Vec::new();
    for (name, items) in ["W:", "B:"].iter().zip(&mut sides) {
        shuffle(items, rng);
        sentences.push(format!("{name} {}.", items.join(", ")));
    }
    sentences.push(if fields[1] == "w" {
        "White to move.".to_string()
    } else {
        "Black to move.".to_string()
    });
    shuffle(&mut sentences, rng);
    sentences.join(" ")
}

#[test]
fn gateway_piece_lists_in_any_order() {
    let ps = positions::<Gateway>("gateway", 0x6a7e, 30, 90, capture);
    // The compact form is positional: nothing to reorder, but every text must read back.
    assert_eq!(check("gateway", 5, &ps, |t, _| t.to_string()), 0);
    let mut rng = SplitMix64(6);
    let mut changed = 0;
    for p in &ps {
        let want = default_clocks(&p.to_text());
        let first = gateway_list(&p.to_text(), &mut SplitMix64(0));
        for _ in 0..PERMUTATIONS {
            let t = gateway_list(&p.to_text(), &mut rng);
            changed += usize::from(t != first);
            same("gateway", p, &want, &t);
        }
    }
    assert!(changed > 100, "only {changed} permutations changed a text");
    let want = "4/4/2/4/4/4/4/2/4/4|4/4/2/4/4/4/4/2/4/4|4/4/2/4/4/4/4/2/4/KKKK|\
                4/4/2/4/4/4/4/2/4/4|4/4/2/4/4/4/4/2/4/1e2 w 0 1";
    let p = Gateway::from_text(want).expect("reads");
    for text in [
        "W: Kx1. B: Ezb1. White to move.",
        "B: Ezb1. W: Kx1. White to move.",
        "White to move. B: Ezb1. W: Kx1.",
        "W: Kx1. White to move. B: Ezb1.",
    ] {
        same("gateway", &p, want, text);
    }
    // Still refused: a side listed twice, the side to move given twice.
    for (text, want) in [
        ("W: Kx1. W: Bwa4. B: Ezb1. White to move.", "twice"),
        ("W: Kx1. B: Ezb1. White to move. Black to move.", "twice"),
        ("W: Kx1. White to move.", "B:"),
    ] {
        let msg = error_of::<Gateway>(text);
        assert!(msg.contains(want), "{text}: {msg}");
    }
}

/// The hands field of a Dai Mitregi text with its letters, both colours, in any order.
fn reorder_hands(text: &str, rng: &mut SplitMix64) -> String {
    map_field(text, 2, rng, |h, rng| {
        if h == "-" {
            h.to_string()
        } else {
            format!("[{}]", shuffled_chars(&h[1..h.len() - 1], rng))
        }
    })
}

#[test]
fn dai_mitregi_hands_in_any_order() {
    let mut changed = 0;
    let leaping = positions::<DaiMitregi>("dai-mitregi", 0xda1, 12, 150, capture);
    let stepping = positions::<DaiMitregiStepping>("dai-mitregi-stepping", 0xda15, 6, 150, capture);
    for (name, texts) in [
        (
            "dai-mitregi",
            leaping.iter().map(|p| p.to_text()).collect::<Vec<_>>(),
        ),
        (
            "dai-mitregi-stepping",
            stepping.iter().map(|p| p.to_text()).collect(),
        ),
    ] {
        let with_hands = texts.iter().filter(|t| t.contains('[')).count();
        assert!(
            with_hands > 20,
            "{name}: only {with_hands} positions with hands"
        );
    }
    changed += check("dai-mitregi", 7, &leaping, reorder_hands);
    changed += check("dai-mitregi-stepping", 8, &stepping, reorder_hands);
    assert!(changed > 200, "only {changed} permutations changed a text");
    // The rules file's example hand `[ZHBE]` is written in the piece-table order.
    let board = "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w";
    let want = format!("{board} [BHZEbn]");
    let p = DaiMitregi::from_text(&want).expect("reads");
    for hands in ["[ZHBEbn]", "[nbZHBE]", "[bZnHEB]"] {
        same("dai-mitregi", &p, &want, &format!("{board} {hands}"));
    }
}

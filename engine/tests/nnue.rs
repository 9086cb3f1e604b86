//! The network evaluation (`variantlab_engine::nnue`): the inputs of every variant, the
//! integer network against its float form, the search's incremental accumulators against a
//! fresh sum, the file format and its refusals, and searches that evaluate with a network.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::{legal, positions};
use std::sync::Arc;
use variantlab_engine::nnue::{
    active_features, material_psqt, Active, FloatNet, InputLayout, NetInfo, NetStack, Network,
    MAGIC, MAX_ACTIVE,
};
use variantlab_engine::position::Position;
use variantlab_engine::search::{EvalChoice, Limits, SearchConfig, Searcher};
use variantlab_engine::variants::Chess;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, Game, VariantKind};

/// A seeded random network for `G` in integers, and its float form.
fn random_net<G: Game>(hidden: usize, seed: u64) -> (FloatNet, Network) {
    let layout = InputLayout::of::<G>();
    let mut float = FloatNet::new(layout.features, hidden, seed);
    // The linear path at the material values, each weight moved a little (as training would).
    let mut rng = SplitMix64(seed);
    float.psqt = material_psqt::<G>()
        .into_iter()
        .map(|w| w + ((rng.next() % 200) as f32 - 100.0) / 4000.0)
        .collect();
    let (net, clamped) = Network::quantize::<G>(&float, NetInfo::default());
    assert_eq!(clamped, 0);
    (float, net)
}

/// Black's inputs are White's with own and enemy swapped: the slot of each region (board,
/// hand, extras) is the one bit that differs, so a feature maps to its partner by flipping it.
fn swapped(layout: &InputLayout, f: u16) -> u16 {
    let f = f as usize;
    let (k, c, h, e) = (
        layout.kinds,
        layout.cells,
        layout.shape.hand,
        layout.shape.extras,
    );
    let board = k * c;
    let hand = k * h;
    let out = if f < 2 * board {
        (f + board) % (2 * board)
    } else if f < 2 * board + 2 * hand {
        2 * board + (f - 2 * board + hand) % (2 * hand)
    } else {
        let base = 2 * board + 2 * hand;
        base + (f - base + e) % (2 * e)
    };
    out as u16
}

fn inputs_of<G: Game>(variant: &str) {
    let layout = InputLayout::of::<G>();
    assert!(layout.features > 0, "{variant}: no inputs");
    let mut a = Active::default();
    for p in positions::<G>(11, 6, 200) {
        active_features(&p, &layout, &mut a);
        assert!(
            a.complete(),
            "{variant}: over {MAX_ACTIVE} inputs in {}",
            p.to_text()
        );
        let (w, b) = (a.lists[0].as_slice(), a.lists[1].as_slice());
        assert!(!w.is_empty(), "{variant}: no inputs in {}", p.to_text());
        assert!(w.windows(2).all(|x| x[0] <= x[1]), "{variant}: not sorted");
        assert!(w.iter().all(|&f| (f as usize) < layout.features));
        let mut from_white: Vec<u16> = w.iter().map(|&f| swapped(&layout, f)).collect();
        from_white.sort_unstable();
        assert_eq!(
            from_white,
            b,
            "{variant}: perspectives differ in {}",
            p.to_text()
        );
    }
}

#[test]
fn every_variant_reports_its_inputs_from_both_sides() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => inputs_of::<G>(kind.name()));
    }
}

/// A chess position with colours swapped and the board turned over.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap_case).collect())
        .collect();
    let turn = if f[1] == "w" { "b" } else { "w" };
    let castling: String = if f[2] == "-" {
        "-".into()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap_case).collect();
        c.sort_unstable();
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".into()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {turn} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

#[test]
fn a_chess_position_and_its_mirror_look_the_same_to_the_side_to_move() {
    let layout = InputLayout::of::<Position<Chess>>();
    let (_, net) = random_net::<Position<Chess>>(16, 3);
    let (mut a, mut b) = (Active::default(), Active::default());
    for p in positions::<Position<Chess>>(5, 8, 120) {
        let m = Position::<Chess>::from_text(&mirror_fen(&p.to_text())).unwrap();
        active_features(&p, &layout, &mut a);
        active_features(&m, &layout, &mut b);
        assert_eq!(
            a.lists[0].as_slice(),
            b.lists[1].as_slice(),
            "{}",
            p.to_text()
        );
        assert_eq!(net.evaluate(&p), net.evaluate(&m), "{}", p.to_text());
    }
}

fn integer_follows_float<G: Game>(variant: &str) {
    let layout = InputLayout::of::<G>();
    let (float, net) = random_net::<G>(32, 7);
    let mut a = Active::default();
    for p in positions::<G>(13, 3, 80) {
        active_features(&p, &layout, &mut a);
        let f = float.evaluate(&a, p.turn());
        let q = net.evaluate(&p) as f32;
        assert!(
            (q - f).abs() <= 0.02 * f.abs() + 8.0,
            "{variant}: integer {q} against float {f} in {}",
            p.to_text()
        );
    }
}

#[test]
fn the_integer_network_follows_its_float_form() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => integer_follows_float::<G>(kind.name()));
    }
}

/// Evaluations through the per-ply accumulators along random lines that go down and back up
/// (as a search does), each equal to the network's evaluation from nothing.
fn incremental_equals_fresh<G: Game>(variant: &str) {
    let (_, net) = random_net::<G>(24, 5);
    let net = Arc::new(net);
    let mut stack = NetStack::new::<G>(net.clone(), 8);
    let mut rng = SplitMix64(17);
    for _ in 0..6 {
        let mut line = vec![G::start()];
        for _ in 0..120 {
            let ply = line.len() - 1;
            let here = line.last().unwrap().clone();
            let moves = legal(&here);
            // Down a ply, or back up one or two (a cut-off), or sideways to a sibling.
            let r = rng.next() % 10;
            if r < 2 && ply >= 1 {
                line.truncate(ply);
            } else if r < 3 && ply >= 2 {
                line.truncate(ply - 1);
            } else if !moves.is_empty() && ply < 7 {
                let mut child = here.clone();
                child.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
                line.push(child);
            } else {
                line.truncate(1);
            }
            let ply = line.len() - 1;
            let p = line.last().unwrap();
            // Some plies are not evaluated (a node in check), as in the search.
            if rng.next().is_multiple_of(4) {
                continue;
            }
            assert_eq!(
                stack.evaluate(p, ply),
                net.evaluate(p),
                "{variant}: ply {ply} of {}",
                p.to_text()
            );
        }
    }
}

#[test]
fn incremental_accumulators_equal_a_fresh_sum() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => incremental_equals_fresh::<G>(kind.name()));
    }
}

/// The same with hands and drops: crazyhouse (`data/variants/crazyhouse.toml`), whose
/// positions report their changed cells and hand counts.
#[test]
fn incremental_accumulators_follow_hands() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/crazyhouse.toml");
    variantlab_engine::variants::file::load(&path).unwrap_or_else(|e| panic!("{e}"));
    incremental_equals_fresh::<Position<variantlab_engine::variants::file::FileVariant64<0>>>(
        "crazyhouse",
    );
}

/// The linear path at the material values is the material balance: a Queen up is worth a
/// Queen, whoever moves.
#[test]
fn the_linear_path_starts_at_the_material_balance() {
    type P = Position<Chess>;
    let layout = InputLayout::of::<P>();
    let mut float = FloatNet::new(layout.features, 8, 1);
    float.ft_weights.iter_mut().for_each(|w| *w = 0.0);
    float.out_weights.iter_mut().for_each(|w| *w = 0.0);
    float.psqt = material_psqt::<P>();
    let (net, _) = Network::quantize::<P>(&float, NetInfo::default());
    let queen = P::start().material_kinds()[4].1;
    for (fen, sign) in [
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1,
        ),
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            -1,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            0,
        ),
    ] {
        let p = P::from_text(fen).unwrap();
        assert_eq!(net.evaluate(&p), sign * queen, "{fen}");
    }
}

#[test]
fn network_files_round_trip_and_damaged_ones_are_refused() {
    let (_, net) = random_net::<Position<Chess>>(8, 1);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    assert_eq!(net.info.variant, "chess");
    // Every truncation is an error, never a panic.
    for len in 0..bytes.len() {
        assert!(
            Network::from_bytes(&bytes[..len]).is_err(),
            "{len} bytes read"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let e = Network::from_bytes(&longer).unwrap_err().to_string();
    assert!(e.contains("bytes of weights"), "{e}");
    let mut bad = bytes.clone();
    bad[0] = b'X';
    let e = Network::from_bytes(&bad).unwrap_err().to_string();
    assert!(e.contains("not a variantlab network"), "{e}");
    // A header claiming absurd sizes.
    let mut info = net.info.clone();
    info.hidden = 1 << 30;
    let mut huge = MAGIC.to_vec();
    let json = serde_json::to_vec(&info).unwrap();
    huge.extend_from_slice(&(json.len() as u32).to_le_bytes());
    huge.extend_from_slice(&json);
    assert!(Network::from_bytes(&huge).is_err());
    // Another variant's network is refused, naming both input layouts.
    let e = net
        .check::<Position<variantlab_engine::variants::Dream46>>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chess/v1") && e.contains("dream-chess-46/v1"),
        "{e}"
    );
    assert!(net.check::<Position<Chess>>().is_ok());
    let e = Network::read(std::path::Path::new("/dev/zero"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

fn searches_with_a_network<G: Game>(variant: &str) {
    let (_, net) = random_net::<G>(16, 9);
    let config = SearchConfig {
        eval: EvalChoice::Net(Arc::new(net.clone())),
        ..SearchConfig::default()
    };
    for p in positions::<G>(21, 2, 30).into_iter().step_by(13) {
        let mut s = Searcher::new(config.clone());
        let r = s.search(&p, &[], Limits::nodes(3000));
        let best = r.best.expect("a move");
        assert!(legal(&p).contains(&best), "{variant}: illegal best move");
        // The static evaluation the search uses is the network's.
        assert_eq!(
            s.evaluate(&p),
            net.evaluate(&p),
            "{variant}: {}",
            p.to_text()
        );
        // The same search again gives the same result (no state carried between searches
        // changes it).
        let again = Searcher::new(config.clone()).search(&p, &[], Limits::nodes(3000));
        assert_eq!((again.best, again.score), (r.best, r.score), "{variant}");
    }
}

#[test]
fn searches_evaluate_with_a_network_in_every_variant() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => searches_with_a_network::<G>(kind.name()));
    }
}

//! Search sanity in every variant, on positions found by seeded random play (so every
//! variant gets them without hand-made positions): a mate in one is found, a claimed mate in
//! two is checked by brute force, an undefended high-value piece is taken, and the chosen move
//! is always legal.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::{legal, positions};
use variantlab_engine::game::{outcome, Game};
use variantlab_engine::search::{Limits, SearchConfig, Searcher, Technique};
use variantlab_engine::{with_variant, Move, Outcome, Termination, VariantKind};

fn mated<G: Game>(p: &G) -> bool {
    matches!(outcome(p, &[]), Some(Outcome::Decisive { winner, reason: Termination::Checkmate }) if winner != p.turn())
}

fn mates_in_one<G: Game>(p: &G) -> Vec<Move> {
    legal(p)
        .into_iter()
        .filter(|&m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            c.in_check() && mated(&c)
        })
        .collect()
}

/// Whether `m` forces mate on the next move: every reply allows a mate in one.
fn forces_mate_in_two<G: Game>(p: &G, m: Move) -> bool {
    let mut c = p.clone();
    c.play_unchecked(m);
    if mated(&c) {
        return true;
    }
    let replies = legal(&c);
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut d = c.clone();
            d.play_unchecked(r);
            !mates_in_one(&d).is_empty()
        })
}

/// `shallow` searches one ply (plus quiescence) where others search two or three: a Dai
/// Mitregi position with pieces in hand has hundreds of moves at every node.
fn check_variant<G: Game>(name: &str, games: usize, shallow: bool, extras: &[&str]) {
    let (mate_depth, hanging_depth) = if shallow { (1, 1) } else { (2, 3) };
    // Looking for a mate in one tries every move: with hundreds of drops, stop at the first.
    let mate_goal = if shallow { 1 } else { 12 };
    let mut all: Vec<G> = extras.iter().map(|t| G::from_text(t).unwrap()).collect();
    all.extend(positions::<G>(42, games, 300));
    // The hanging-piece check compares the score with material: the mop-up term (up to 140
    // cp once a side is down to its royal piece and cheapest kind) is off here and has its
    // own test in the search module.
    let mut searcher = Searcher::new(SearchConfig {
        disabled: SearchConfig::default().disabled | Technique::MopUp as u64,
        ..SearchConfig::default()
    });
    let (mut mate1, mut mate2, mut hanging, mut legal_checked) = (0, 0, 0, 0);
    let mut mate2_tries = 0;
    let values: Vec<i32> = G::start().material_kinds().iter().map(|k| k.1).collect();
    for p in &all {
        let moves = legal(p);
        // Mate in one: the search must find one.
        if mate1 < mate_goal && !mates_in_one(p).is_empty() {
            let r = searcher.search(p, &[], Limits::depth(mate_depth));
            let mut c = p.clone();
            c.play_unchecked(r.best.unwrap());
            assert!(mated(&c), "{name}: missed a mate in one in {}", p.to_text());
            mate1 += 1;
            continue;
        }
        // A claimed mate in two must hold up against every defence.
        // Checks narrow the tree: try positions where the side to move can give one.
        if mate2 < 4
            && !shallow
            && mate2_tries < 60
            && moves.len() <= 60
            && moves.iter().any(|&m| {
                let mut c = p.clone();
                c.play_unchecked(m);
                c.in_check()
            })
        {
            mate2_tries += 1;
            let r = searcher.search(
                p,
                &[],
                Limits {
                    depth: Some(4),
                    nodes: Some(200_000),
                    ..Limits::default()
                },
            );
            if r.mate_in() == Some(2) {
                assert!(
                    forces_mate_in_two(p, r.best.unwrap()),
                    "{name}: false mate in two in {}",
                    p.to_text()
                );
                mate2 += 1;
            }
        }
        // An undefended piece worth at least three pawns is taken (or something better done).
        if hanging < 12 {
            for &m in &moves {
                if !p.is_tactical(m) {
                    continue;
                }
                let before = p.material();
                let mut c = p.clone();
                c.play_unchecked(m);
                let after = c.material();
                let them = 1 - p.turn().index();
                let gain: i32 = (0..values.len())
                    .map(|k| (before[them][k] as i32 - after[them][k] as i32) * values[k])
                    .sum();
                let recapture = legal(&c).into_iter().any(|r| c.is_tactical(r));
                if gain >= 300 && !recapture && !c.in_check() && outcome(&c, &[]).is_none() {
                    // Judged in the evaluation's own currency: a tuned evaluation values
                    // pieces (and, in Dai Mitregi, pieces in hand) otherwise than the
                    // defaults that chose the position.
                    let before_eval = searcher.evaluate(p);
                    let eval_gain = -searcher.evaluate(&c) - before_eval;
                    let r = searcher.search(p, &[], Limits::depth(hanging_depth));
                    // The capture is played, or another move whose score shows at least half
                    // the gain. A played capture may score less: the opponent's counterplay
                    // (a discovered attack, a token step, a drop) can win material back, as
                    // in a Hegelian position where taking a Bishop lets a Rook take another.
                    assert!(
                        r.best == Some(m) || r.score >= before_eval + eval_gain / 2,
                        "{name}: left a free {gain} cp in {} (static {before_eval}, the capture \
                         {eval_gain} by the evaluation, played {:?}, score {})",
                        p.to_text(),
                        r.best,
                        r.score
                    );
                    hanging += 1;
                    break;
                }
            }
        }
        if legal_checked < 20 && !moves.is_empty() {
            let r = searcher.search(p, &[], Limits::nodes(500));
            assert!(moves.contains(&r.best.unwrap()));
            legal_checked += 1;
        }
    }
    assert!(mate1 >= 1, "{name}: no mate-in-one position found to test");
    assert!(
        hanging >= 1,
        "{name}: no hanging-piece position found to test"
    );
    eprintln!(
        "{name}: {mate1} mates in one, {mate2} mates in two, {hanging} hanging pieces checked"
    );
}

/// Random play on a board of 192 pieces whose captures return to play almost never mates, so
/// Dai Mitregi gets one hand-made mate in one (a Rook dropped on the a-file, the King on c15
/// guarding b15 and b16).
const DAI_MITREGI_MATE: &[&str] = &["k15/2K13/16/16/16/16/16/16/16/16/16/16/16/16/16/16 w [R]"];

/// Random games for a variant, and hand-made positions added to them. Mates are rarer on the
/// 3D board (a Quantum King must have all four cells attacked), so Gateway gets more games;
/// Dai Mitregi gets fewer (hundreds of drops make every node costly) and its hand-made mate.
fn sample(kind: VariantKind) -> (usize, &'static [&'static str]) {
    match kind {
        VariantKind::Gateway => (300, &[]),
        VariantKind::DaiMitregi | VariantKind::DaiMitregiStepping => (8, DAI_MITREGI_MATE),
        _ => (40, &[]),
    }
}

/// Runs the checks for one variant on a thread named after it, with a roomy stack (Dai
/// Mitregi's move lists hold thousands of moves); shallow where move lists run to hundreds.
fn run(kind: VariantKind) {
    let (games, extras) = sample(kind);
    let shallow = kind.info().many_moves;
    std::thread::Builder::new()
        .name(kind.name().to_string())
        .stack_size(variantlab_engine::search::THREAD_STACK)
        .spawn(move || with_variant!(kind, G => check_variant::<G>(kind.name(), games, shallow, extras)))
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn every_variant_mates_and_takes_free_material() {
    for kind in VariantKind::ALL {
        run(kind);
    }
}

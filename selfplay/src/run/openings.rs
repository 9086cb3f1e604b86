//! Openings: random legal plies from the start (optionally redrawn until a short search
//! finds the position balanced), or positions read from a file.
//!
//! Why balanced openings: a few random plies often leave a piece hanging, and the side to
//! move after them (White after an even number) takes it. In a 4000-node chess study with
//! `random-plies:6`, a quarter of the openings gave White over a pawn at its first move, and
//! White's score over all games was 0.544 against 0.505 over the others: the first-move
//! advantage that study reported was mostly the openings'. `balanced-plies:P` keeps only
//! random lines that a 2000-node search scores within ±100 centipawns.
//!
//! Why trade openings (`trades:P[:M]`): the `balanced` piece values are the exchange rates at
//! which a game stays even, and ordinary games seldom trade a Queen for anything but a Queen,
//! so the heaviest pieces are the least measured. A trade opening has a near-even trade made
//! (a Queen against a Rook, a Knight and a Pawn; a Rook against a Bishop and two Pawns), drawn
//! from [`even_trades`]: at the start followed by `P` random plies, or after `P` random plies
//! and `M` moves of a short search.

use anyhow::{bail, Context, Result};
use variantlab_engine::game::{outcome, random_move, Game};
use variantlab_engine::moves::MoveBuf;
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Color;

/// Nodes of the search that judges a balanced opening.
pub const BALANCE_NODES: u64 = 2000;
/// Default bound of a balanced opening's score, centipawns.
pub const BALANCE_WITHIN_CP: i32 = 100;
/// Random lines tried for one balanced opening before the most balanced one so far is taken.
const BALANCE_TRIES: u32 = 64;

/// Whether an openings spec plays moves from the start (its games record the opening as
/// those moves), rather than recording each game's start as a position text.
pub fn plays_from_start(spec: &str) -> bool {
    spec.starts_with("random-plies:") || spec.starts_with("balanced-plies:")
}

/// Whether an openings spec is made up by the program (random lines, trades), rather than
/// naming a file of positions.
pub fn is_generated(spec: &str) -> bool {
    plays_from_start(spec) || spec.starts_with("trades:")
}

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// The start position followed by this many random legal plies (seeded per pair).
    RandomPlies(u32),
    /// As `RandomPlies`, redrawn until a [`BALANCE_NODES`]-node search of the default engine
    /// scores the position within `within_cp` centipawns (after [`BALANCE_TRIES`] lines, the
    /// most balanced one).
    Balanced {
        /// Random plies from the start.
        plies: u32,
        /// Largest accepted score, centipawns, either side.
        within_cp: i32,
    },
    /// A near-even trade made (one of [`even_trades`], drawn per pair, and which side gave
    /// up the single piece), redrawn as for `Balanced` until a search scores the position
    /// within the trade's imbalance (at the default values) and [`BALANCE_WITHIN_CP`];
    /// recorded as the position's text. With no engine plies the trade is made at the start
    /// and `plies` random plies follow; with some, `plies` random plies and then
    /// `engine_plies` moves of the judging search ([`balance_judge`], [`BALANCE_NODES`] a
    /// move) come first and the trade is made there, in a developed position, as trades
    /// happen in games.
    Trades {
        /// Random plies.
        plies: u32,
        /// Plies the judging search plays before the trade.
        engine_plies: u32,
    },
    /// Position texts, one per line of a file (used in turn, cycling).
    Positions(Vec<String>),
}

/// A trade made before a game starts: one side gives up one piece of kind `one`, the other
/// the pieces of kinds `others` (material kinds, [`Game::material_kinds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trade {
    /// The single piece's kind.
    pub one: usize,
    /// The kinds the other side gives up (repeated for several pieces of a kind).
    pub others: Vec<usize>,
}

/// Most pieces the other side of a trade gives up.
const TRADE_PIECES: usize = 3;

/// The near-even trades of the variant's start position: one piece against one to
/// [`TRADE_PIECES`] pieces of other kinds whose default values (from
/// [`Game::material_kinds`]) sum to within the cheapest kind's value of it, and which the
/// start position can give up (both sides, and not leaving a side in check). A one-for-one
/// trade is listed once, with the dearer (or, at equal value, the later) kind as `one`.
/// The window is one cheapest piece, the band of positions the `balanced` piece values fit.
pub fn even_trades<G: Game>() -> Vec<Trade> {
    let start = G::start();
    let values: Vec<i32> = start.material_kinds().iter().map(|k| k.1).collect();
    let Some(&cheapest) = values.iter().filter(|&&v| v > 0).min() else {
        return Vec::new();
    };
    let window = cheapest;
    let mut out = Vec::new();
    for one in 0..values.len() {
        if values[one] <= 0 {
            continue;
        }
        let mut others = Vec::new();
        let mut found = Vec::new();
        multisets(&values, one, 0, &mut others, &mut found);
        for others in found {
            let sum: i32 = others.iter().map(|&k| values[k]).sum();
            let single_twice = others.len() == 1 && {
                let b = others[0];
                values[b] > values[one] || (values[b] == values[one] && b > one)
            };
            let trade = Trade { one, others };
            if (sum - values[one]).abs() <= window
                && !single_twice
                && trade_start::<G>(&trade, Color::White).is_some()
                && trade_start::<G>(&trade, Color::Black).is_some()
            {
                out.push(trade);
            }
        }
    }
    out
}

/// Every multiset of up to [`TRADE_PIECES`] kinds other than `one`, in non-decreasing kind
/// order from `from`, each of positive value.
fn multisets(
    values: &[i32],
    one: usize,
    from: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if !cur.is_empty() {
        out.push(cur.clone());
    }
    if cur.len() == TRADE_PIECES {
        return;
    }
    for k in from..values.len() {
        if k != one && values[k] > 0 {
            cur.push(k);
            multisets(values, one, k, cur, out);
            cur.pop();
        }
    }
}

/// The start position after `trade`, `giver` giving up the single piece and the other side
/// the rest; `None` where the start cannot lose those pieces.
pub fn trade_start<G: Game>(trade: &Trade, giver: Color) -> Option<G> {
    make_trade(&G::start(), trade, giver)
}

/// `pos` after `trade` ([`trade_start`]); `None` where it cannot lose those pieces.
fn make_trade<G: Game>(pos: &G, trade: &Trade, giver: Color) -> Option<G> {
    let mut pos = pos.without_material(giver, trade.one)?;
    for &k in &trade.others {
        pos = pos.without_material(!giver, k)?;
    }
    Some(pos)
}

impl Openings {
    /// Parses `balanced-plies:P[:CP]`, `random-plies:P`, `trades:P[:M]` or a file path; file
    /// lines are checked against the variant.
    ///
    /// # Errors
    /// A bad `random-plies` number, an unreadable or empty file, or a line that is not a
    /// legal position (with its line number).
    pub fn parse<G: Game>(spec: &str) -> Result<Openings> {
        if let Some(rest) = spec.strip_prefix("balanced-plies:") {
            let (p, cp) = rest.split_once(':').unwrap_or((rest, ""));
            let plies: u32 = p.parse().with_context(|| {
                format!("--openings balanced-plies:{rest}: '{p}' is not a number of plies")
            })?;
            if plies > 200 {
                bail!("--openings balanced-plies:{rest}: at most 200 plies");
            }
            let within_cp = if cp.is_empty() {
                BALANCE_WITHIN_CP
            } else {
                match cp.parse::<i32>() {
                    Ok(v) if v > 0 => v,
                    _ => bail!(
                        "--openings balanced-plies:{rest}: '{cp}' is not a positive number of centipawns"
                    ),
                }
            };
            return Ok(Openings::Balanced { plies, within_cp });
        }
        if let Some(rest) = spec.strip_prefix("trades:") {
            let (p, e) = rest.split_once(':').unwrap_or((rest, "0"));
            let number = |t: &str, what: &str| -> Result<u32> {
                let n: u32 = t.parse().with_context(|| {
                    format!("--openings trades:{rest}: '{t}' is not a number of {what}")
                })?;
                if n > 200 {
                    bail!("--openings trades:{rest}: at most 200 {what}");
                }
                Ok(n)
            };
            let (plies, engine_plies) = (number(p, "plies")?, number(e, "engine plies")?);
            if even_trades::<G>().is_empty() {
                bail!(
                    "--openings trades:{rest}: {} has no near-even trades its start position can make (the variant cannot remove pieces from it)",
                    G::start().variant_name()
                );
            }
            return Ok(Openings::Trades {
                plies,
                engine_plies,
            });
        }
        if let Some(p) = spec.strip_prefix("random-plies:") {
            let plies: u32 = p
                .parse()
                .with_context(|| format!("--openings random-plies:{p}: not a number of plies"))?;
            if plies > 200 {
                bail!("--openings random-plies:{plies}: at most 200 plies");
            }
            return Ok(Openings::RandomPlies(plies));
        }
        let text = std::fs::read_to_string(spec)
            .with_context(|| format!("reading openings file {spec}"))?;
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = G::from_text(line).with_context(|| format!("{spec}, line {}", i + 1))?;
            let mut moves = G::Moves::default();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                bail!(
                    "{spec}, line {}: the game is already over in this position",
                    i + 1
                );
            }
            positions.push(line.to_string());
        }
        if positions.is_empty() {
            bail!("openings file {spec} has no positions");
        }
        Ok(Openings::Positions(positions))
    }

    /// The opening of pair `pair_id`: a position and the text of the random plies played.
    pub fn opening<G: Game>(&self, pair_id: u64, seed: u64) -> (G, String) {
        match self {
            Openings::Positions(list) => {
                let text = &list[(pair_id % list.len() as u64) as usize];
                (
                    G::from_text(text).expect("validated when read"),
                    text.clone(),
                )
            }
            Openings::RandomPlies(plies) => {
                let mut rng = SplitMix64(seed ^ 0x6f70_656e_696e_6773);
                let (pos, line, _) = random_line(&G::start(), &mut rng, *plies);
                (pos, line)
            }
            Openings::Trades {
                plies,
                engine_plies,
            } => {
                let mut rng = SplitMix64(seed ^ 0x7472_6164_6573);
                let trades = even_trades::<G>();
                let trade = &trades[(rng.next() % trades.len() as u64) as usize];
                let giver = if rng.next() & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                // The plies may not hang a piece: the position is judged as a balanced
                // opening's, within the trade's own imbalance at the default values.
                let values: Vec<i32> = G::start().material_kinds().iter().map(|k| k.1).collect();
                let gap = (trade.others.iter().map(|&k| values[k]).sum::<i32>()
                    - values[trade.one])
                    .abs();
                let within = gap + BALANCE_WITHIN_CP;
                let pos = if *engine_plies == 0 {
                    let base: G = trade_start(trade, giver)
                        .expect("even_trades lists only trades the start can make");
                    balanced_line(&base, &mut rng, *plies, within).0
                } else {
                    traded_later(&mut rng, trade, giver, *plies, *engine_plies, within)
                };
                let text = pos.to_text();
                (pos, text)
            }
            Openings::Balanced { plies, within_cp } => {
                let mut rng = SplitMix64(seed ^ 0x6261_6c61_6e63_6564);
                balanced_line(&G::start(), &mut rng, *plies, *within_cp)
            }
        }
    }
}

/// Candidates drawn by `draw` (a position, the hashes of the positions before it, and what
/// goes with it), until the judging search ([`balance_judge`]) scores one within `within_cp`
/// centipawns; after [`BALANCE_TRIES`] draws, the most balanced one. `None` where no draw
/// gave a candidate.
fn most_balanced<G: Game, T>(
    within_cp: i32,
    mut draw: impl FnMut(&mut Searcher) -> Option<(G, Vec<u64>, T)>,
) -> Option<(G, T)> {
    let mut judge = balance_judge();
    let mut best: Option<(i32, G, T)> = None;
    for _ in 0..BALANCE_TRIES {
        let Some((pos, history, with)) = draw(&mut judge) else {
            continue;
        };
        judge.clear();
        let score = judge
            .search(&pos, &history, Limits::nodes(BALANCE_NODES))
            .score
            .abs();
        if score <= within_cp {
            return Some((pos, with));
        }
        if best.as_ref().is_none_or(|b| score < b.0) {
            best = Some((score, pos, with));
        }
    }
    best.map(|(_, pos, with)| (pos, with))
}

/// Random lines of `plies` plies from `base` (as [`random_line`]), judged by
/// [`most_balanced`]: the position and the line's text.
fn balanced_line<G: Game>(
    base: &G,
    rng: &mut SplitMix64,
    plies: u32,
    within_cp: i32,
) -> (G, String) {
    most_balanced(within_cp, |_| {
        let (pos, line, history) = random_line(base, rng, plies);
        Some((pos, history, line))
    })
    .expect("a random line is always drawn")
}

/// `plies` random plies from the start, `engine_plies` moves of the judging search, then
/// `trade` made there, judged by [`most_balanced`]; the start with the trade made if no
/// draw could make it (every piece of a kind having been taken).
fn traded_later<G: Game>(
    rng: &mut SplitMix64,
    trade: &Trade,
    giver: Color,
    plies: u32,
    engine_plies: u32,
    within_cp: i32,
) -> G {
    let drawn = most_balanced(within_cp, |judge| {
        let (mut pos, _, mut history) = random_line(&G::start(), rng, plies);
        for _ in 0..engine_plies {
            judge.clear();
            let Some(m) = judge
                .search(&pos, &history, Limits::nodes(BALANCE_NODES))
                .best
            else {
                break;
            };
            history.push(pos.hash());
            pos.play_unchecked(m);
            if outcome(&pos, &history).is_some() {
                break;
            }
        }
        let traded = make_trade(&pos, trade, giver)?;
        let mut moves = G::Moves::default();
        traded.legal_moves(&mut moves);
        // A made position has no history before it.
        (!moves.is_empty()).then_some((traded, Vec::new(), ()))
    });
    drawn.map_or_else(
        || trade_start(trade, giver).expect("even_trades lists only trades the start can make"),
        |(pos, ())| pos,
    )
}

/// The searcher that scores a candidate balanced opening: the default engine with a small
/// table (the search is short and runs once per try), cleared before each position.
pub fn balance_judge() -> Searcher {
    Searcher::new(SearchConfig {
        hash_mib: 1,
        ..SearchConfig::default()
    })
}

/// `plies` random legal plies from `base`, drawn again until the game is not over after
/// them: the position, the moves' text and the hashes of the positions before it.
fn random_line<G: Game>(base: &G, rng: &mut SplitMix64, plies: u32) -> (G, String, Vec<u64>) {
    loop {
        let mut pos = base.clone();
        let mut line = Vec::new();
        let mut history = Vec::new();
        for _ in 0..plies {
            let Some(m) = random_move(&pos, rng) else {
                break;
            };
            line.push(pos.move_text(m));
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
        if line.len() == plies as usize && outcome(&pos, &history).is_none() {
            return (pos, line.join(" "), history);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use variantlab_engine::position::Position;
    type Chess = Position<variantlab_engine::variants::Chess>;

    #[test]
    fn balanced_specs_parse_and_bad_ones_are_refused() {
        assert_eq!(
            Openings::parse::<Chess>("balanced-plies:6").unwrap(),
            Openings::Balanced {
                plies: 6,
                within_cp: BALANCE_WITHIN_CP
            }
        );
        assert_eq!(
            Openings::parse::<Chess>("balanced-plies:4:50").unwrap(),
            Openings::Balanced {
                plies: 4,
                within_cp: 50
            }
        );
        for bad in [
            "balanced-plies:x",
            "balanced-plies:6:0",
            "balanced-plies:6:-5",
            "balanced-plies:300",
        ] {
            let err = Openings::parse::<Chess>(bad).unwrap_err().to_string();
            assert!(err.contains("balanced-plies"), "{bad}: {err}");
        }
        assert!(plays_from_start("balanced-plies:6") && plays_from_start("random-plies:2"));
        assert!(!plays_from_start("openings.txt"));
    }

    #[test]
    fn balanced_openings_are_balanced_and_reproducible() {
        let spec = Openings::Balanced {
            plies: 6,
            within_cp: 60,
        };
        let mut judge = balance_judge();
        let mut redrawn = 0;
        for pair in 0..12 {
            let (pos, line) = spec.opening::<Chess>(pair, 1000 + pair);
            assert_eq!(line.split_whitespace().count(), 6, "{line}");
            let (again, line_again) = spec.opening::<Chess>(pair, 1000 + pair);
            assert_eq!((again.hash(), &line_again), (pos.hash(), &line));
            // Replayed from the start, the line gives the position, which the judging search
            // scores within the bound.
            let mut replay = Chess::start();
            let mut history = Vec::new();
            for m in line.split_whitespace() {
                history.push(replay.hash());
                replay.play_text(m).unwrap();
            }
            assert_eq!(replay.hash(), pos.hash());
            judge.clear();
            let score = judge
                .search(&pos, &history, Limits::nodes(BALANCE_NODES))
                .score;
            assert!(score.abs() <= 60, "{line}: {score}");
            let (plain, _) = Openings::RandomPlies(6).opening::<Chess>(pair, 1000 + pair);
            redrawn += usize::from(plain.hash() != pos.hash());
        }
        // The filter is not a no-op: plain random lines differ from the kept ones.
        assert!(redrawn > 0);
    }

    #[test]
    fn chess_trades_are_the_even_ones_and_their_openings_hold_them() {
        let start = Chess::start();
        let kinds = start.material_kinds();
        let name = |t: &Trade| {
            let mut o: Vec<&str> = t.others.iter().map(|&k| kinds[k].0).collect();
            o.sort_unstable();
            format!("{} = {}", kinds[t.one].0, o.join(" + "))
        };
        let trades = even_trades::<Chess>();
        let names: Vec<String> = trades.iter().map(name).collect();
        for want in [
            "knight = pawn + pawn + pawn",
            "bishop = knight",
            "rook = knight + pawn + pawn",
            "queen = knight + pawn + rook",
            "queen = bishop + rook",
        ] {
            assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
        }
        // Within one pawn, never uneven, each one-for-one once.
        for bad in ["knight = bishop", "queen = rook + rook", "rook = pawn"] {
            assert!(!names.iter().any(|n| n == bad), "{bad}: {names:?}");
        }
        for t in &trades {
            let sum: i32 = t.others.iter().map(|&k| kinds[k].1).sum();
            assert!((sum - kinds[t.one].1).abs() <= kinds[0].1, "{}", name(t));
        }
        // Each opening has one of the trades made, in either direction, before its plies;
        // the recorded text is the position, and the same pair and seed give the same one.
        let material = |p: &Chess| p.material();
        let full = material(&start);
        let mut givers = [0; 2];
        for pair in 0..24 {
            let (pos, text) = Openings::Trades {
                plies: 0,
                engine_plies: 0,
            }
            .opening::<Chess>(pair, 77 + pair);
            assert_eq!(Chess::from_text(&text).unwrap().hash(), pos.hash());
            let m = material(&pos);
            let lost = |c: usize| -> Vec<i32> {
                (0..kinds.len())
                    .map(|k| i32::from(full[c][k]) - i32::from(m[c][k]))
                    .collect()
            };
            let made = trades.iter().any(|t| {
                (0..2).any(|g| {
                    let mut one = vec![0; kinds.len()];
                    one[t.one] = 1;
                    let mut others = vec![0; kinds.len()];
                    t.others.iter().for_each(|&k| others[k] += 1);
                    let hit = lost(g) == one && lost(1 - g) == others;
                    givers[g] += usize::from(hit);
                    hit
                })
            });
            assert!(made, "pair {pair}: {text}");
            let (again, again_text) = Openings::Trades {
                plies: 6,
                engine_plies: 0,
            }
            .opening::<Chess>(pair, 77 + pair);
            assert_eq!(
                Openings::Trades {
                    plies: 6,
                    engine_plies: 0
                }
                .opening::<Chess>(pair, 77 + pair)
                .1,
                again_text
            );
            assert_eq!(Chess::from_text(&again_text).unwrap().hash(), again.hash());
        }
        assert!(givers[0] > 0 && givers[1] > 0, "{givers:?}");
        assert_eq!(
            Openings::parse::<Chess>("trades:6").unwrap(),
            Openings::Trades {
                plies: 6,
                engine_plies: 0
            }
        );
        assert_eq!(
            Openings::parse::<Chess>("trades:6:20").unwrap(),
            Openings::Trades {
                plies: 6,
                engine_plies: 20
            }
        );
        // Made later: after 2 random and 6 engine plies (White to move at move 5), the same
        // pair and seed giving the same position.
        let later = Openings::Trades {
            plies: 2,
            engine_plies: 6,
        };
        let (pos, text) = later.opening::<Chess>(3, 5);
        assert_eq!(later.opening::<Chess>(3, 5).1, text);
        assert_eq!(Chess::from_text(&text).unwrap().hash(), pos.hash());
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!((fields[1], fields[5]), ("w", "5"), "{text}");
        assert_ne!(material(&pos), full, "{text}");
        let err = Openings::parse::<Chess>("trades:x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("trades:x"), "{err}");
        // The free-form variants trade too (a variant with nothing to trade is refused: the
        // analysis tests' Kings-and-Pawns file).
        assert!(
            Openings::parse::<variantlab_engine::variants::gateway::Gateway>("trades:4").is_ok()
        );
        assert!(is_generated("trades:4") && !plays_from_start("trades:4"));
    }
}

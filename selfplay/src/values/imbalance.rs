//! The imbalance method: pairs of games from the start with one piece removed from one side;
//! a kind's value is its odds' Elo over the unit's (module doc of [`crate::values`]).

use super::row::{unit_kind, ValueRow, UNIT_NOTE};
use crate::run::openings::Openings;
use crate::run::play::Adjudication;
use crate::run::schedule::{self, Flow, Match, MatchSettings, Order, Played, Slot};
use crate::stats::elo_from_score;
use anyhow::{bail, Result};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use variantlab_engine::game::Game;
use variantlab_engine::search::Limits;
use variantlab_engine::{Color, VariantKind};

/// Settings of the imbalance method.
#[derive(Clone, Debug)]
pub struct ImbalanceSettings {
    /// The variant.
    pub variant: VariantKind,
    /// Game pairs per kind.
    pub pairs: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The unit's key (`None`: the pawn); see [`unit_kind`].
    pub unit: Option<String>,
    /// No progress bar.
    pub quiet: bool,
}

/// Elo of the full side against the side missing one piece of `kind`, with its standard
/// error in Elo and the games played.
#[allow(clippy::clone_on_copy)] // generic over variants, some of which are not Copy
fn odds_elo<G: Game>(
    kind: usize,
    set: &ImbalanceSettings,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
) -> Option<(f64, f64, u64)> {
    let start = G::start();
    let handicapped = [
        start.without_material(Color::White, kind)?,
        start.without_material(Color::Black, kind)?,
    ];
    let openings = Openings::parse::<G>(crate::run::config::DEFAULT_OPENINGS)
        .expect("the default openings parse");
    let default = crate::run::config::EngineConfig::default_named();
    let settings = MatchSettings {
        variant: set.variant,
        engines: [default.clone(), default],
        limits: Limits::nodes(set.nodes),
        tc: None,
        seed: set.seed ^ (kind as u64) << 48,
        openings: crate::run::config::DEFAULT_OPENINGS.into(),
        adjudication: Adjudication {
            max_plies: crate::run::config::default_max_plies(set.variant),
            resign: None,
            draw: None,
        },
        record_moves: false,
    };
    let [spec, _] = settings
        .players::<G>(None)
        .expect("the default configuration fits every variant");
    // Game 2p: White is missing the piece; game 2p+1: Black is. Each from its own random
    // plies (the handicap is the imbalance under study: no balance filter here).
    let start = |slot: &Slot| {
        let base = handicapped[(slot.id % 2) as usize].clone();
        (random_plies(base, &openings, slot.seed), String::new())
    };
    let games = Match {
        settings: &settings,
        players: [&spec, &spec],
        start: &start,
    };
    let mut points = vec![0.0; (set.pairs * 2) as usize];
    games
        .run(
            pool,
            0..set.pairs * 2,
            &|_| true,
            Order::Finished,
            &mut |g: Played| {
                let weak = if g.slot.a_is_white() {
                    Color::White
                } else {
                    Color::Black
                };
                points[g.slot.id as usize] = match g.outcome.end.winner() {
                    Some(c) if c == weak => 0.0,
                    Some(_) => 1.0,
                    None => 0.5,
                };
                bar.inc(1);
                Ok(Flow::Continue)
            },
        )
        .expect("counting a game cannot fail");
    let n = points.len() as f64;
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let se_score = (var / n).sqrt().max(1e-6);
    // Elo standard error by the slope of the logistic at the mean score.
    let m = mean.clamp(0.001, 0.999);
    let slope = 400.0 / (std::f64::consts::LN_10 * m * (1.0 - m));
    Some((elo_from_score(mean), se_score * slope, points.len() as u64))
}

/// The opening position after a few seeded random plies from `base`.
fn random_plies<G: Game>(base: G, openings: &Openings, seed: u64) -> G {
    match openings {
        // The handicap is the imbalance under study: no balance filter here.
        Openings::RandomPlies(p)
        | Openings::Balanced { plies: p, .. }
        | Openings::Trades { plies: p, .. } => {
            let mut rng = variantlab_engine::zobrist::SplitMix64(seed);
            let mut pos = base;
            for _ in 0..*p {
                let Some(m) = variantlab_engine::game::random_move(&pos, &mut rng) else {
                    break;
                };
                pos.play_unchecked(m);
            }
            pos
        }
        Openings::Positions(_) => base,
    }
}

/// The imbalance method for one variant.
///
/// # Errors
/// A variant that cannot remove single pieces (its position type does not support it).
pub fn imbalance<G: Game>(set: &ImbalanceSettings) -> Result<Vec<ValueRow>> {
    let start = G::start();
    let kinds = start.material_kinds();
    let variant = start.variant_name().to_string();
    let unit = unit_kind(&kinds, set.unit.as_deref())?;
    let removable: Vec<usize> = (0..kinds.len())
        .filter(|&k| start.without_material(Color::White, k).is_some())
        .collect();
    if removable.is_empty() {
        bail!("{variant}: the imbalance method needs material-odds positions, which this variant does not provide; use --method regression");
    }
    if !removable.contains(&unit) {
        bail!(
            "{variant}: the start position cannot lose a {}, so the imbalance method cannot calibrate with it; choose another --unit",
            crate::run::config::piece_key(kinds[unit].0)
        );
    }
    let pool = schedule::pool(set.threads)?;
    let bar = schedule::progress(
        set.quiet,
        Some(removable.len() as u64 * set.pairs * 2),
        "{bar:30} {pos}/{len} odds games  {per_sec}  eta {eta}",
    );
    let mut elos = BTreeMap::new();
    for &k in &removable {
        if let Some(e) = odds_elo::<G>(k, set, &pool, &bar) {
            elos.insert(k, e);
        }
    }
    bar.finish_and_clear();
    let (pe, pse, _) = elos[&unit];
    let base = |k: usize, games: u64| ValueRow {
        variant: variant.clone(),
        piece: crate::run::config::piece_key(kinds[k].0),
        method: "imbalance".into(),
        value: None,
        interval: None,
        games,
        note: String::new(),
    };
    Ok((0..kinds.len())
        .map(|k| match elos.get(&k) {
            None => ValueRow {
                note: "left out: this variant's start position cannot lose a piece of this kind (a royal piece, or one the variant cannot remove)".into(),
                ..base(k, 0)
            },
            Some(&(_, _, games)) if k == unit => ValueRow {
                value: Some(1.0),
                note: UNIT_NOTE.into(),
                ..base(k, games)
            },
            // Independent games: no covariance between the kind's and the unit's Elo.
            Some(&(e, se, games)) => ValueRow::ratio(base(k, games), e, pe, se * se, pse * pse, 0.0),
        })
        .collect())
}

//! What a named configuration sets: values, table size, evaluation, techniques and parameters.

use super::{SearchParams, Technique};
use crate::eval::{builtin, EvalWeights, Evaluator, WeightsError};
use crate::game::Game;
use crate::nnue::{builtin_net, NetError, Network};
use std::sync::Arc;

/// Engine parameters: what a named configuration changes between two engine versions.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Material values in centipawns that override the evaluation's own, indexed like
    /// [`Game::material_kinds`]; `None` or a missing entry keeps the evaluation's value (a
    /// tuned weights file's material, or the variant's default for the classic evaluation).
    pub values: Vec<Option<i32>>,
    /// Transposition table size in MiB (0 disables it).
    pub hash_mib: usize,
    /// Whether the positional terms (mobility, centralisation) are used.
    pub positional: bool,
    /// Root randomisation: each root move gets a seeded bonus in `0..=randomize` centipawns,
    /// so near-equal moves vary between games. 0 = off.
    pub randomize: i32,
    /// Seed of the root randomisation.
    pub seed: u64,
    /// Search techniques switched off (a set of [`Technique`] bits), so a build can be
    /// compared with itself minus one technique; [`Technique::DEFAULT_OFF`] by default (the
    /// techniques that are built but did not pass their SPRT).
    pub disabled: u64,
    /// The evaluation: the variant's default (its network or tuned weights), its tuned
    /// weights, the classic one, or weights or a network from a file.
    pub eval: EvalChoice,
    /// Margins, reductions and windows ([`super::Param`]); the defaults are the tested search.
    pub params: SearchParams,
}

/// Which evaluation a configuration uses.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum EvalChoice {
    /// The variant's embedded network ([`crate::nnue::builtin_net`]) where it has one (with
    /// the linear evaluation beside it when the network is trained on it), else its linear
    /// evaluation ([`EvalChoice::Linear`]).
    #[default]
    Default,
    /// The variant's embedded tuned weights where it has them (the linear evaluation), else
    /// the classic evaluation, whatever the default becomes.
    Linear,
    /// Material plus the classic positional terms ([`Game::positional`]): the evaluation
    /// before tuning, kept for comparison.
    Classic,
    /// Weights read from a file.
    Weights(Arc<EvalWeights>),
    /// A network ([`crate::nnue`]) read from a file.
    Net(Arc<Network>),
}

impl EvalChoice {
    /// The evaluator this choice gives for `G`, `None` for the classic evaluation.
    ///
    /// # Errors
    /// If file weights do not fit the variant.
    pub fn evaluator<G: Game>(&self) -> Result<Option<Evaluator>, WeightsError> {
        match self {
            EvalChoice::Classic => Ok(None),
            EvalChoice::Default => match builtin_net(G::start().variant_name()) {
                Some(n) => EvalChoice::Net(n).evaluator::<G>(),
                None => EvalChoice::Linear.evaluator::<G>(),
            },
            EvalChoice::Linear => match builtin(G::start().variant_name()) {
                Some(w) => Evaluator::new::<G>(&w).map(Some),
                None => Ok(None),
            },
            EvalChoice::Weights(w) => Evaluator::new::<G>(w).map(Some),
            // A network on the linear evaluation needs that evaluation beside it.
            EvalChoice::Net(n) if n.on_linear() => EvalChoice::Linear.evaluator::<G>(),
            EvalChoice::Net(_) => Ok(None),
        }
    }

    /// The network this choice evaluates `G` with, if any.
    ///
    /// # Errors
    /// If the network was made for other inputs ([`Network::check`]).
    pub fn network<G: Game>(&self) -> Result<Option<Arc<Network>>, NetError> {
        match self {
            EvalChoice::Net(n) => n.check::<G>().map(|()| Some(n.clone())),
            EvalChoice::Default => match builtin_net(G::start().variant_name()) {
                Some(n) => EvalChoice::Net(n).network::<G>(),
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            values: Vec::new(),
            hash_mib: 16,
            positional: true,
            randomize: 0,
            seed: 0,
            disabled: Technique::DEFAULT_OFF,
            eval: EvalChoice::Default,
            params: SearchParams::default(),
        }
    }
}

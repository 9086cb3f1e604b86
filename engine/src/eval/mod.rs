//! The evaluation: a weighted sum of features every variant exposes through
//! [`Game::eval_features`], with weights read from data (`data/eval/<variant>.json`).
//!
//! Features, each with a middle-game and an end-game weight blended by the game phase
//! (tapered evaluation):
//! - material per kind (counts from [`Game::material`], pieces in hand included);
//! - a cell table per kind, written from White's side and read through the rank mirror for
//!   Black, so one table serves both sides;
//! - mobility per kind (cells a piece reaches), where the variant has cheap attack tables;
//! - attacks on the cells around the enemy royal piece, and their square (an attack that
//!   brings more pieces counts for more than the sum of its parts), and per attacking kind
//!   in the chess family ([`KindTerm::ZoneAttacks`]), with the safe checks each kind has
//!   there ([`KindTerm::SafeChecks`]);
//! - pieces with fewer than three cells to go to, per kind, in the chess family
//!   ([`KindTerm::Cramped`]: mobility is worth more at its low end);
//! - threatened pieces per kind (attacked by a cheaper enemy piece, or attacked and not
//!   defended), one weight for the side to move and one for the other, where the variant has
//!   cheap attack tables, and whether a side has two or more of them (a fork);
//! - per kind, where the variant has pawn structure, the reached cells an enemy pawn attacks
//!   and the pieces an enemy pawn attacks or a safe pawn push would attack; in the chess
//!   family, the pieces pinned to their own royal piece ([`KindTerm::Pinned`]);
//! - pieces in hand per kind (drop variants), on top of their material;
//! - a pair of a kind (two Bishops and more), and each kind's pieces times its side's pawns
//!   ([`KindTerm::OwnPawns`]), from the material counts, for every variant;
//! - pawn structure where the variant's promoting pieces only ever move forward (passed pawns
//!   by rank from their owner's side, doubled and isolated pawns; [`PawnDetails`]: the royal
//!   piece's pawn shelter and the enemy pawns in it, pawns defended by pawns, blocked and
//!   free passed pawns, the royal pieces' distance from a passed pawn's path, pawns in a
//!   phalanx, backward pawns, space; per kind ([`KindTerm`]), pieces on half-open and open
//!   files and on outposts, behind a pawn, their distance from their royal piece, and own
//!   pawns on a colour-bound piece's colour);
//! - the side to move (tempo).
//!
//! The evaluation is linear in the weights, which is what lets `variantlab tune` fit them
//! exactly by the Texel method. The classic evaluation (material plus two fixed terms) stays
//! available for comparison.

pub mod classic;
mod trace;
mod weights;

pub use crate::features::{FeatureSink, KindTerm, PawnDetails};
pub use classic::positional;
pub use trace::{trace_table, Trace, TraceGroup};
pub use weights::{builtin, EvalWeights, KindWeights, Provenance, WeightsError};

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::Color;

/// How far a pawn on `rank` (from its owner's side) has advanced beyond the first quarter of
/// a board of `ranks` ranks: the factor of the royal pieces' distances from a passed pawn.
pub fn passed_progress(rank: usize, ranks: usize) -> u32 {
    rank.saturating_sub(ranks / 4) as u32
}

/// A piece reaching fewer cells than this counts as cramped ([`KindTerm::Cramped`]).
pub const CRAMPED_BELOW: u32 = 3;

/// Reports one non-royal piece's activity to `sink`: its `mobility` (cells it reaches that
/// its side does not hold), how far that falls below [`CRAMPED_BELOW`], and its `zone`
/// attacks on the cells next to the enemy royal piece ([`KindTerm::ZoneAttacks`]). Returns
/// `zone`, for the side's total. Shared by the variants whose pieces have a single reach set
/// (the chess family, Dialectic).
pub fn report_piece_activity<S: FeatureSink>(
    sink: &mut S,
    color: Color,
    kind: usize,
    mobility: u32,
    zone: u32,
) -> u32 {
    sink.mobility(color, kind, mobility);
    if mobility < CRAMPED_BELOW {
        sink.kind_term(color, kind, KindTerm::Cramped, CRAMPED_BELOW - mobility);
    }
    if zone > 0 {
        sink.kind_term(color, kind, KindTerm::ZoneAttacks, zone);
    }
    zone
}

/// Reports threatened pieces and forks to `sink`, for a variant that knows each side's attack
/// sets. `attacked[side][role]`: the cells that side's pieces of that role attack; `any[side]`:
/// every cell the side attacks, its royal piece included (which attacks and defends, but is
/// never the cheaper attacker); `royal`: the royal role, never counted as a target. A piece is
/// threatened when a cheaper enemy role attacks it, or when the enemy attacks it and its own
/// side does not.
pub fn report_threats<B: Bitboard, S: FeatureSink>(
    sink: &mut S,
    attacked: [&[B]; 2],
    any: [B; 2],
    royal: usize,
    value: impl Fn(usize) -> i32,
    pieces: impl Fn(Color, usize) -> B,
    turn: Color,
) {
    let roles = attacked[0].len();
    for c in Color::ALL {
        let theirs = attacked[(!c).index()];
        let loose = any[(!c).index()] & !any[c.index()];
        let counts = (0..roles).filter(|&r| r != royal).map(|r| {
            let own = pieces(c, r);
            if own.is_empty() {
                return (r, 0);
            }
            let mut cheaper = B::EMPTY;
            for a in (0..roles).filter(|&a| a != royal && value(a) < value(r)) {
                cheaper |= theirs[a];
            }
            (r, (own & (cheaper | loose)).count())
        });
        report_threat_counts(sink, c, c == turn, counts);
    }
}

/// Reports one side's threatened pieces, `(kind, count)` per kind, and a fork when two or
/// more are threatened: the tail of the threat rule that every variant reporting it shares
/// (how each finds the threatened pieces depends on its board).
pub fn report_threat_counts<S: FeatureSink>(
    sink: &mut S,
    color: Color,
    to_move: bool,
    counts: impl IntoIterator<Item = (usize, u32)>,
) {
    let mut all = 0;
    for (kind, n) in counts {
        if n > 0 {
            sink.threatened(color, kind, to_move, n);
            all += n;
        }
    }
    if all >= 2 {
        sink.multiple_threats(color, to_move);
    }
}

/// Full weight of the middle game in the phase blend.
pub const PHASE_MAX: i32 = 256;

/// Where each feature's weight sits in a flat weight vector: per kind a block of material,
/// in hand, mobility, pair, threatened (side to move, other side), the [`KindTerm`]s, and one
/// entry per cell; then the royal-zone attacks, the tempo, the passed pawns by rank,
/// doubled and isolated pawns, the square of the royal-zone attacks, two or more threatened
/// pieces (side to move, other side), and the [`PawnDetails`] terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Material kinds ([`Game::material_kinds`]).
    pub kinds: usize,
    /// Cell indices of the cell tables ([`Game::eval_cells`]).
    pub cells: usize,
    /// Ranks of the passed-pawn table ([`Game::pawn_ranks`]; 0 without pawn structure).
    pub pawn_ranks: usize,
}

impl Layout {
    /// The layout of `G`'s features.
    pub fn of<G: Game>(pos: &G) -> Layout {
        Layout {
            kinds: pos.material_kinds().len(),
            cells: pos.eval_cells(),
            pawn_ranks: pos.pawn_ranks(),
        }
    }
    fn block(&self) -> usize {
        6 + KindTerm::ALL.len() + self.cells
    }
    /// Index of kind `k`'s material weight.
    pub fn material(&self, k: usize) -> usize {
        k * self.block()
    }
    /// Index of kind `k`'s in-hand weight.
    pub fn in_hand(&self, k: usize) -> usize {
        k * self.block() + 1
    }
    /// Index of kind `k`'s mobility weight.
    pub fn mobility(&self, k: usize) -> usize {
        k * self.block() + 2
    }
    /// Index of kind `k`'s pair weight (the side has two or more of the kind).
    pub fn pair(&self, k: usize) -> usize {
        k * self.block() + 3
    }
    /// Index of kind `k`'s threatened-piece weight, for the side to move or the other side.
    pub fn threatened(&self, k: usize, to_move: bool) -> usize {
        k * self.block() + if to_move { 4 } else { 5 }
    }
    /// Index of kind `k`'s weight of `term`.
    pub fn kind_term(&self, k: usize, term: KindTerm) -> usize {
        k * self.block() + 6 + term as usize
    }
    /// Index of kind `k`'s weight on `cell`.
    pub fn cell(&self, k: usize, cell: usize) -> usize {
        k * self.block() + 6 + KindTerm::ALL.len() + cell
    }
    /// Index of the royal-zone attack weight.
    pub fn king_attack(&self) -> usize {
        self.kinds * self.block()
    }
    /// Index of the tempo weight.
    pub fn tempo(&self) -> usize {
        self.kinds * self.block() + 1
    }
    /// Index of the weight of a passed pawn on `rank` (from its owner's side).
    pub fn passed(&self, rank: usize) -> usize {
        self.kinds * self.block() + 2 + rank
    }
    /// Index of the doubled-pawn weight.
    pub fn doubled(&self) -> usize {
        self.kinds * self.block() + 2 + self.pawn_ranks
    }
    /// Index of the isolated-pawn weight.
    pub fn isolated(&self) -> usize {
        self.kinds * self.block() + 3 + self.pawn_ranks
    }
    /// Index of the weight of the royal-zone attacks' square term.
    pub fn king_danger(&self) -> usize {
        self.kinds * self.block() + 4 + self.pawn_ranks
    }
    /// Index of the weight of two or more threatened pieces, for the side to move or the
    /// other side.
    pub fn multiple_threats(&self, to_move: bool) -> usize {
        self.kinds * self.block() + if to_move { 5 } else { 6 } + self.pawn_ranks
    }
    /// Index of the weight of a shelter pawn one rank (`far` false) or two ranks ahead of
    /// the royal piece.
    pub fn shelter(&self, far: bool) -> usize {
        self.kinds * self.block() + if far { 8 } else { 7 } + self.pawn_ranks
    }
    /// Index of the weight of a pawn defended by a pawn.
    pub fn supported(&self) -> usize {
        self.kinds * self.block() + 9 + self.pawn_ranks
    }
    /// Index of the weight of a blocked passed pawn.
    pub fn blocked(&self) -> usize {
        self.kinds * self.block() + 10 + self.pawn_ranks
    }
    /// Index of the weight of the own (`enemy` false) or enemy royal piece's distance from
    /// a passed pawn's path.
    pub fn royal_distance(&self, enemy: bool) -> usize {
        self.kinds * self.block() + if enemy { 12 } else { 11 } + self.pawn_ranks
    }
    /// Index of the weight of a pawn storm (enemy pawns in the royal piece's shelter).
    pub fn storm(&self) -> usize {
        self.kinds * self.block() + 13 + self.pawn_ranks
    }
    /// Index of the weight of a free passed pawn's progress.
    pub fn free_passed(&self) -> usize {
        self.kinds * self.block() + 14 + self.pawn_ranks
    }
    /// Index of the weight of a pawn in a phalanx.
    pub fn phalanx(&self) -> usize {
        self.kinds * self.block() + 15 + self.pawn_ranks
    }
    /// Index of the weight of a backward pawn.
    pub fn backward(&self) -> usize {
        self.kinds * self.block() + 16 + self.pawn_ranks
    }
    /// Index of the weight of a cell of space.
    pub fn space(&self) -> usize {
        self.kinds * self.block() + 17 + self.pawn_ranks
    }
    /// Index of the weight of a step of progress of a passed pawn with a safe path.
    pub fn safe_path(&self) -> usize {
        self.kinds * self.block() + 18 + self.pawn_ranks
    }
    /// Index of the weight of a step of progress of a passed pawn with a safe next cell.
    pub fn safe_stop(&self) -> usize {
        self.kinds * self.block() + 19 + self.pawn_ranks
    }
    /// Index of the weight of a step of progress of a passed pawn with a defended next cell.
    pub fn defended_stop(&self) -> usize {
        self.kinds * self.block() + 20 + self.pawn_ranks
    }
    /// Indices of the weights that belong to the pawns of a variant with pawn structure:
    /// passed pawns by rank, doubled, isolated, supported and blocked pawns, the royal
    /// distances from passed pawns and the shelter (what a pawn is worth with its usual
    /// structure, [`PawnDetails`]).
    pub fn pawn_terms(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.pawn_ranks).map(|r| self.passed(r)).collect();
        v.extend([
            self.doubled(),
            self.isolated(),
            self.supported(),
            self.blocked(),
            self.royal_distance(false),
            self.royal_distance(true),
            self.shelter(false),
            self.shelter(true),
            self.storm(),
            self.free_passed(),
            self.phalanx(),
            self.backward(),
            self.space(),
            self.safe_path(),
            self.safe_stop(),
            self.defended_stop(),
        ]);
        v
    }
    /// Indices of the activity weights: mobility, royal-zone attacks and their square,
    /// threatened pieces and forks (the features of [`FeatureSink::wants_activity`]).
    pub fn activity(&self) -> Vec<usize> {
        let mut v = vec![
            self.king_attack(),
            self.king_danger(),
            self.multiple_threats(true),
            self.multiple_threats(false),
        ];
        for k in 0..self.kinds {
            v.extend([
                self.mobility(k),
                self.threatened(k, true),
                self.threatened(k, false),
                self.kind_term(k, KindTerm::ZoneAttacks),
                self.kind_term(k, KindTerm::SafeChecks),
                self.kind_term(k, KindTerm::Cramped),
                self.kind_term(k, KindTerm::WeakZone),
                self.kind_term(k, KindTerm::UnsafeMobility),
                self.kind_term(k, KindTerm::PushThreatened),
                self.kind_term(k, KindTerm::PawnThreatened),
                self.kind_term(k, KindTerm::Pinned),
            ]);
        }
        v
    }
    /// Number of weights (each a middle-game and end-game pair).
    pub fn len(&self) -> usize {
        self.kinds * self.block() + 21 + self.pawn_ranks
    }
    /// Whether there are no weights at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The game phase of `pos` in `0..=PHASE_MAX` (`PHASE_MAX` = all pieces of the start
/// position on the board or in hand), from per-kind phase weights.
pub fn phase<G: Game>(pos: &G, phase_weights: &[i32], full: i32) -> i32 {
    phase_of(&pos.material(), phase_weights, full)
}

/// [`phase`] from material counts already at hand.
fn phase_of(m: &crate::game::Material, phase_weights: &[i32], full: i32) -> i32 {
    if full <= 0 {
        return PHASE_MAX;
    }
    let mut p = 0;
    for (k, &w) in phase_weights.iter().enumerate() {
        p += w * (m[0][k] as i32 + m[1][k] as i32);
    }
    (p.min(full) * PHASE_MAX) / full
}

/// Phase weight of each kind: pieces count by their default value in pawns; the cheapest
/// kind (pawns) and royal or valueless kinds do not count.
pub fn phase_weights(values: &[i32]) -> Vec<i32> {
    let pawn = values.iter().copied().filter(|&v| v > 0).min().unwrap_or(0);
    values
        .iter()
        .map(|&v| if v > pawn { (v + 50) / 100 } else { 0 })
        .collect()
}

/// A dense evaluator for one variant: the weights of an [`EvalWeights`] laid out for fast
/// look-up, with the variant's phase weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    layout: Layout,
    weights: Vec<[i32; 2]>,
    phase_weights: Vec<i32>,
    full_phase: i32,
    /// Whether any mobility, royal-zone or threat weight is not zero.
    activity: bool,
    /// The kinds [`KindTerm::OwnPawns`] counts.
    own_pawns: Option<OwnPawns>,
}

impl Evaluator {
    /// An evaluator for `G` from weights checked against the variant.
    ///
    /// # Errors
    /// If the weights are for another variant, or their kinds or cell tables do not match.
    pub fn new<G: Game>(w: &EvalWeights) -> Result<Evaluator, WeightsError> {
        let start = G::start();
        let layout = Layout::of(&start);
        let dense = w.dense(start.variant_name(), &start.material_kinds(), layout)?;
        Ok(Evaluator::from_dense::<G>(dense))
    }

    /// Material only, at the variant's default values: the tuner's starting point.
    pub fn material_only<G: Game>() -> Evaluator {
        let start = G::start();
        let layout = Layout::of(&start);
        let mut weights = vec![[0; 2]; layout.len()];
        for (k, (_, v)) in start.material_kinds().iter().enumerate() {
            weights[layout.material(k)] = [*v, *v];
        }
        Evaluator::from_dense::<G>(weights)
    }

    /// An evaluator from a flat weight vector laid out by [`Layout::of`].
    ///
    /// # Panics
    /// If the vector does not have the layout's length.
    pub fn from_dense<G: Game>(weights: Vec<[i32; 2]>) -> Evaluator {
        let start = G::start();
        let layout = Layout::of(&start);
        assert_eq!(
            weights.len(),
            layout.len(),
            "weights laid out for the variant"
        );
        let values: Vec<i32> = start.material_kinds().iter().map(|k| k.1).collect();
        let phase_weights = phase_weights(&values);
        let m = start.material();
        let full_phase = phase_weights
            .iter()
            .enumerate()
            .map(|(k, &w)| w * (m[0][k] as i32 + m[1][k] as i32))
            .sum();
        let activity = layout.activity().iter().any(|&i| weights[i] != [0, 0]);
        Evaluator {
            layout,
            weights,
            phase_weights,
            full_phase,
            activity,
            own_pawns: OwnPawns::of(&values),
        }
    }

    /// The layout of the weights.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The flat weights (middle game, end game).
    pub fn weights(&self) -> &[[i32; 2]] {
        &self.weights
    }

    /// Sets one kind's material weight in both phases (an engine configuration's `values`).
    pub fn set_material(&mut self, kind: usize, value: i32) {
        if kind < self.layout.kinds {
            let i = self.layout.material(kind);
            self.weights[i] = [value, value];
        }
    }

    /// The game phase of `pos` in `0..=PHASE_MAX`.
    pub fn phase<G: Game>(&self, pos: &G) -> i32 {
        phase(pos, &self.phase_weights, self.full_phase)
    }

    /// Score in centipawns from the side to move's point of view.
    pub fn evaluate<G: Game>(&self, pos: &G) -> i32 {
        let mut acc = Accumulator {
            layout: self.layout,
            weights: &self.weights,
            sum: [0; 2],
            activity: self.activity,
        };
        let m = pos.material();
        for k in 0..self.layout.kinds.min(m[0].len()) {
            for (i, n) in material_terms(self.layout, self.own_pawns, &m, k) {
                if n != 0 {
                    let w = self.weights[i];
                    acc.sum[0] += n * w[0];
                    acc.sum[1] += n * w[1];
                }
            }
        }
        pos.eval_features(&mut acc);
        let tempo = self.weights[self.layout.tempo()];
        let sign = if pos.turn() == Color::White { 1 } else { -1 };
        acc.sum[0] += sign * tempo[0];
        acc.sum[1] += sign * tempo[1];
        // The material read above serves the phase too (no second pass in the hot path).
        let ph = phase_of(&m, &self.phase_weights, self.full_phase);
        let white = (acc.sum[0] * ph + acc.sum[1] * (PHASE_MAX - ph)) / PHASE_MAX;
        sign * white
    }
}

/// The square term of `attacks` royal-zone attacks (divided by 4 so its weight has room to
/// be a fraction of a centipawn per attack and still an integer).
#[inline]
fn king_danger(attacks: u32) -> i32 {
    (attacks * attacks / 4).min(i16::MAX as u32) as i32
}

/// Which kinds [`KindTerm::OwnPawns`] counts: the pawns are the cheapest kind of positive
/// value; every other kind of positive value (royal kinds are worth 0) is counted by them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OwnPawns {
    pawn: usize,
    kinds: u64,
}

impl OwnPawns {
    /// The rule for kinds of default `values`; `None` without a kind of positive value.
    fn of(values: &[i32]) -> Option<OwnPawns> {
        let pawn = (0..values.len())
            .filter(|&k| values[k] > 0)
            .min_by_key(|&k| values[k])?;
        let kinds = (0..values.len().min(64))
            .filter(|&k| k != pawn && values[k] > 0)
            .fold(0u64, |acc, k| acc | 1 << k);
        Some(OwnPawns { pawn, kinds })
    }

    /// White's pieces of kind `k` times White's pawns, less the same for Black (0 for a kind
    /// the term does not count).
    #[inline]
    fn difference(rule: Option<OwnPawns>, m: &crate::game::Material, k: usize) -> i32 {
        match rule {
            Some(r) if k < 64 && r.kinds & (1 << k) != 0 => {
                m[0][k] as i32 * m[0][r.pawn] as i32 - m[1][k] as i32 * m[1][r.pawn] as i32
            }
            _ => 0,
        }
    }
}

/// Kind `k`'s material terms as (weight index, White-minus-Black count): its count, its pair
/// and its pieces with their pawns ([`KindTerm::OwnPawns`]). The one place the evaluation
/// and the tuner's recorder read material from, so the two cannot drift apart.
#[inline]
fn material_terms(
    layout: Layout,
    own_pawns: Option<OwnPawns>,
    m: &crate::game::Material,
    k: usize,
) -> [(usize, i32); 3] {
    let (white, black) = (m[0][k], m[1][k]);
    [
        (layout.material(k), white as i32 - black as i32),
        (layout.pair(k), pair_difference(white, black)),
        (
            layout.kind_term(k, KindTerm::OwnPawns),
            OwnPawns::difference(own_pawns, m, k),
        ),
    ]
}

/// Whether White has a pair of a kind (two or more) minus whether Black has.
#[inline]
fn pair_difference(white: u16, black: u16) -> i32 {
    i32::from(white >= 2) - i32::from(black >= 2)
}

/// Adds weights for the search.
struct Accumulator<'a> {
    layout: Layout,
    weights: &'a [[i32; 2]],
    sum: [i32; 2],
    activity: bool,
}

impl Accumulator<'_> {
    /// The search skips the activity features where the weights leave them at zero.
    #[inline]
    fn activity(&self) -> bool {
        self.activity
    }
    #[inline]
    fn add(&mut self, color: Color, index: usize, times: i32) {
        let w = self.weights[index];
        let t = if color == Color::White { times } else { -times };
        self.sum[0] += t * w[0];
        self.sum[1] += t * w[1];
    }
}

/// The feature-to-weight-index mapping, written once for both sinks that add by index (the
/// search's [`Accumulator`] and the tuner's [`FeatureRecorder`]); each supplies `layout` and
/// `add(color, index, times)`.
macro_rules! indexed_feature_sink {
    ($sink:ty) => {
        impl FeatureSink for $sink {
            #[inline]
            fn piece(&mut self, color: Color, kind: usize, cell: usize) {
                self.add(color, self.layout.cell(kind, cell), 1);
            }
            #[inline]
            fn mobility(&mut self, color: Color, kind: usize, cells: u32) {
                self.add(color, self.layout.mobility(kind), cells as i32);
            }
            #[inline]
            fn king_attacks(&mut self, color: Color, attacks: u32) {
                self.add(color, self.layout.king_attack(), attacks as i32);
            }
            #[inline]
            fn threatened(&mut self, color: Color, kind: usize, to_move: bool, count: u32) {
                self.add(color, self.layout.threatened(kind, to_move), count as i32);
            }
            #[inline]
            fn multiple_threats(&mut self, color: Color, to_move: bool) {
                self.add(color, self.layout.multiple_threats(to_move), 1);
            }
            #[inline]
            fn king_danger(&mut self, color: Color, attacks: u32) {
                self.add(color, self.layout.king_danger(), king_danger(attacks));
            }
            #[inline]
            fn in_hand(&mut self, color: Color, kind: usize, count: u32) {
                self.add(color, self.layout.in_hand(kind), count as i32);
            }
            #[inline]
            fn passed(&mut self, color: Color, rank: usize) {
                self.add(color, self.layout.passed(rank), 1);
            }
            #[inline]
            fn pawn_structure(&mut self, color: Color, doubled: u32, isolated: u32) {
                self.add(color, self.layout.doubled(), doubled as i32);
                self.add(color, self.layout.isolated(), isolated as i32);
            }
            #[inline]
            fn kind_term(&mut self, color: Color, kind: usize, term: KindTerm, count: u32) {
                self.add(color, self.layout.kind_term(kind, term), count as i32);
            }
            #[inline]
            fn pawn_details(&mut self, color: Color, d: PawnDetails) {
                let l = self.layout;
                self.add(color, l.shelter(false), d.shelter_near as i32);
                self.add(color, l.shelter(true), d.shelter_far as i32);
                self.add(color, l.supported(), d.supported as i32);
                self.add(color, l.blocked(), d.blocked as i32);
                self.add(color, l.royal_distance(false), d.own_royal_distance as i32);
                self.add(color, l.royal_distance(true), d.enemy_royal_distance as i32);
                self.add(color, l.storm(), d.storm as i32);
                self.add(color, l.free_passed(), d.free_passed as i32);
                self.add(color, l.phalanx(), d.phalanx as i32);
                self.add(color, l.backward(), d.backward as i32);
                self.add(color, l.space(), d.space as i32);
                self.add(color, l.safe_path(), d.safe_path as i32);
                self.add(color, l.safe_stop(), d.safe_stop as i32);
                self.add(color, l.defended_stop(), d.defended_stop as i32);
            }
            #[inline]
            fn wants_activity(&self) -> bool {
                self.activity()
            }
        }
    };
}

indexed_feature_sink!(Accumulator<'_>);

/// Records a position's features as (weight index, White-minus-Black count) pairs, for the
/// tuner; material and tempo included, so the evaluation is the dot product with the weights
/// blended by the phase.
pub struct FeatureRecorder {
    layout: Layout,
    /// The kinds [`KindTerm::OwnPawns`] counts (from the first position recorded).
    own_pawns: Option<OwnPawns>,
    /// The features so far (an index may appear more than once).
    pub features: Vec<(u32, i16)>,
    /// Per weight index, how often its feature occurred over every recorded position, both
    /// sides counted (a piece on a cell, a mobility cell): how much of the data speaks for
    /// each weight, and what a piece's average cell and mobility terms are.
    pub totals: Vec<u64>,
}

impl FeatureRecorder {
    /// An empty recorder for a layout.
    pub fn new(layout: Layout) -> FeatureRecorder {
        FeatureRecorder {
            layout,
            own_pawns: None,
            features: Vec::new(),
            totals: vec![0; layout.len()],
        }
    }

    /// Records every feature of `pos`, merged by index.
    pub fn record<G: Game>(&mut self, pos: &G) {
        self.features.clear();
        if self.own_pawns.is_none() {
            let values: Vec<i32> = pos.material_kinds().iter().map(|k| k.1).collect();
            self.own_pawns = OwnPawns::of(&values);
        }
        let m = pos.material();
        for k in 0..self.layout.kinds.min(m[0].len()) {
            let [material, pair, with_pawns] = material_terms(self.layout, self.own_pawns, &m, k);
            for (i, n) in [material, pair, with_pawns] {
                if n != 0 {
                    self.features.push((i as u32, n as i16));
                }
            }
            // How often the data speaks for the pair and pieces-with-pawns weights.
            self.totals[pair.0] += u64::from(m[0][k] >= 2) + u64::from(m[1][k] >= 2);
            self.totals[with_pawns.0] += with_pawns.1.unsigned_abs() as u64;
        }
        pos.eval_features(self);
        let sign = if pos.turn() == Color::White { 1 } else { -1 };
        self.features.push((self.layout.tempo() as u32, sign));
        self.features.sort_unstable_by_key(|f| f.0);
        let mut merged: Vec<(u32, i16)> = Vec::with_capacity(self.features.len());
        for &(i, n) in &self.features {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += n,
                _ => merged.push((i, n)),
            }
        }
        merged.retain(|f| f.1 != 0);
        self.features = merged;
    }

    /// The tuner records every feature, whatever the starting weights.
    fn activity(&self) -> bool {
        true
    }

    fn add(&mut self, color: Color, index: usize, times: i32) {
        let t = if color == Color::White { times } else { -times };
        self.features.push((index as u32, t as i16));
        self.totals[index] += times.unsigned_abs() as u64;
    }
}

indexed_feature_sink!(FeatureRecorder);

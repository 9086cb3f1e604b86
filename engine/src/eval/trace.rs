//! An evaluation split into groups of features (material, cells, mobility, royal safety, …),
//! each with its middle-game and end-game sum: what the UCI `eval` command prints. Why: an
//! engine author compares the groups with another engine's trace to see which knowledge a
//! position's score rests on, or lacks.

use super::{phase_of, Evaluator, FeatureRecorder, KindTerm, Layout, PHASE_MAX};
use crate::game::Game;
use crate::Color;

/// A group of evaluation features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TraceGroup {
    /// Material per kind, pairs of a kind and each kind's pieces times its side's pawns.
    Material,
    /// Pieces in hand (drop variants), on top of their material.
    InHand,
    /// The cell tables.
    Cells,
    /// Mobility, cramped pieces and mobility onto cells enemy pawns attack.
    Mobility,
    /// Attacks on the royal zone, safe checks, weak zone cells, shelter and storm.
    RoyalSafety,
    /// Threatened pieces, forks, pawn threats and pushes, pins.
    Threats,
    /// Pawn structure: doubled, isolated, supported, phalanx and backward pawns.
    Pawns,
    /// Passed pawns and their details.
    Passed,
    /// Piece placement: files, outposts, behind a pawn, distance from the royal piece, pawns
    /// on a bishop's colour.
    Pieces,
    /// Space behind the pawns.
    Space,
    /// The side to move.
    Tempo,
}

impl TraceGroup {
    /// Every group, in the order of a trace.
    pub const ALL: [TraceGroup; 11] = [
        TraceGroup::Material,
        TraceGroup::InHand,
        TraceGroup::Cells,
        TraceGroup::Mobility,
        TraceGroup::RoyalSafety,
        TraceGroup::Threats,
        TraceGroup::Pawns,
        TraceGroup::Passed,
        TraceGroup::Pieces,
        TraceGroup::Space,
        TraceGroup::Tempo,
    ];

    /// The group's name in a trace.
    pub fn name(self) -> &'static str {
        match self {
            TraceGroup::Material => "Material",
            TraceGroup::InHand => "In hand",
            TraceGroup::Cells => "Cells",
            TraceGroup::Mobility => "Mobility",
            TraceGroup::RoyalSafety => "Royal safety",
            TraceGroup::Threats => "Threats",
            TraceGroup::Pawns => "Pawns",
            TraceGroup::Passed => "Passed",
            TraceGroup::Pieces => "Pieces",
            TraceGroup::Space => "Space",
            TraceGroup::Tempo => "Tempo",
        }
    }

    fn of_term(term: KindTerm) -> TraceGroup {
        match term {
            KindTerm::HalfOpenFile
            | KindTerm::OpenFile
            | KindTerm::Outpost
            | KindTerm::BehindPawn
            | KindTerm::RoyalDistance
            | KindTerm::ColourPawns => TraceGroup::Pieces,
            KindTerm::ZoneAttacks | KindTerm::SafeChecks | KindTerm::WeakZone => {
                TraceGroup::RoyalSafety
            }
            KindTerm::Cramped | KindTerm::UnsafeMobility => TraceGroup::Mobility,
            KindTerm::PushThreatened | KindTerm::PawnThreatened | KindTerm::Pinned => {
                TraceGroup::Threats
            }
            KindTerm::OwnPawns => TraceGroup::Material,
        }
    }
}

impl Layout {
    /// The trace group of the weight at `index`.
    pub fn group(&self, index: usize) -> TraceGroup {
        let block = self.block();
        if index < self.kinds * block {
            return match index % block {
                0 | 3 => TraceGroup::Material,
                1 => TraceGroup::InHand,
                2 => TraceGroup::Mobility,
                4 | 5 => TraceGroup::Threats,
                o if o < 6 + KindTerm::ALL.len() => TraceGroup::of_term(KindTerm::ALL[o - 6]),
                _ => TraceGroup::Cells,
            };
        }
        let passed = self.passed(0)..self.passed(0) + self.pawn_ranks;
        match index {
            i if i == self.tempo() => TraceGroup::Tempo,
            i if passed.contains(&i) => TraceGroup::Passed,
            i if i == self.space() => TraceGroup::Space,
            i if [
                self.king_attack(),
                self.king_danger(),
                self.shelter(false),
                self.shelter(true),
                self.storm(),
            ]
            .contains(&i) =>
            {
                TraceGroup::RoyalSafety
            }
            i if i == self.multiple_threats(true) || i == self.multiple_threats(false) => {
                TraceGroup::Threats
            }
            i if [
                self.doubled(),
                self.isolated(),
                self.supported(),
                self.phalanx(),
                self.backward(),
            ]
            .contains(&i) =>
            {
                TraceGroup::Pawns
            }
            _ => TraceGroup::Passed,
        }
    }
}

/// A position's evaluation by group, from White's point of view, before the phase blend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Each group's middle-game and end-game sum in centipawns, in [`TraceGroup::ALL`]'s
    /// order.
    pub groups: Vec<(TraceGroup, [i32; 2])>,
    /// The game phase, `PHASE_MAX` (the middle game) down to 0 (the end game).
    pub phase: i32,
}

impl Trace {
    /// A middle-game and end-game pair blended by the trace's phase.
    pub fn blend(&self, [mg, eg]: [i32; 2]) -> i32 {
        (mg * self.phase + eg * (PHASE_MAX - self.phase)) / PHASE_MAX
    }

    /// The sum of every group, middle game and end game.
    pub fn total(&self) -> [i32; 2] {
        self.groups
            .iter()
            .fold([0, 0], |acc, (_, s)| [acc[0] + s[0], acc[1] + s[1]])
    }

    /// The evaluation from White's point of view: the total blended by the phase, the
    /// score [`Evaluator::evaluate`] gives for White.
    pub fn white_score(&self) -> i32 {
        self.blend(self.total())
    }
}

impl Evaluator {
    /// The evaluation of `pos` split into [`TraceGroup`]s.
    pub fn trace<G: Game>(&self, pos: &G) -> Trace {
        let mut recorder = FeatureRecorder::new(self.layout);
        recorder.record(pos);
        let mut sums = [[0i32; 2]; TraceGroup::ALL.len()];
        for &(index, count) in &recorder.features {
            let w = self.weights[index as usize];
            let group = self.layout.group(index as usize) as usize;
            sums[group][0] += i32::from(count) * w[0];
            sums[group][1] += i32::from(count) * w[1];
        }
        Trace {
            groups: TraceGroup::ALL
                .iter()
                .map(|&g| (g, sums[g as usize]))
                .collect(),
            phase: phase_of(&pos.material(), &self.phase_weights, self.full_phase),
        }
    }
}

/// The trace as a text table, one group a line with its middle-game, end-game and blended
/// sums in pawns, then the total (the blended column sums to it up to rounding).
pub fn trace_table(t: &Trace, turn: Color) -> String {
    let pawns = |cp: i32| format!("{:+7.2}", f64::from(cp) / 100.0);
    let mut out = String::from("        Group |      MG      EG |   Blend\n");
    out.push_str(" -------------+-----------------+--------\n");
    for &(g, s) in &t.groups {
        out.push_str(&format!(
            " {:>12} | {} {} | {}\n",
            g.name(),
            pawns(s[0]),
            pawns(s[1]),
            pawns(t.blend(s))
        ));
    }
    let total = t.total();
    out.push_str(" -------------+-----------------+--------\n");
    out.push_str(&format!(
        " {:>12} | {} {} | {}\n",
        "Total",
        pawns(total[0]),
        pawns(total[1]),
        pawns(t.white_score())
    ));
    let side = if turn == Color::White { 1 } else { -1 };
    out.push_str(&format!(
        "Phase {} of {PHASE_MAX}; evaluation {} (White's side), {} (side to move)",
        t.phase,
        pawns(t.white_score()),
        pawns(side * t.white_score())
    ));
    out
}

//! The evaluation weights as a data file (`data/eval/<variant>.json`): what the tuner writes,
//! what the binary embeds as each variant's default, and what an engine configuration may
//! load instead.

use super::{KindTerm, Layout};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// How a weights file was produced.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// How the weights were obtained (`texel`, `material`).
    pub method: String,
    /// Games the positions came from (training and held out).
    #[serde(default)]
    pub games: u64,
    /// Positions fitted.
    #[serde(default)]
    pub positions: u64,
    /// The self-play settings of those games (engine, nodes, openings) and the tuner's.
    #[serde(default)]
    pub settings: String,
    /// Date of tuning (UTC, YYYY-MM-DD).
    #[serde(default)]
    pub date: String,
    /// variantlab version and commit that tuned.
    #[serde(default)]
    pub version: String,
    /// Logistic loss on the held-out games before and after tuning.
    #[serde(default)]
    pub holdout_loss: Option<[f64; 2]>,
    /// The fitted scaling constant of the logistic (result = σ(K · eval / 400)).
    #[serde(default)]
    pub scale: Option<f64>,
}

/// The weights of one material kind, middle game and end game: `[mg, eg]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindWeights {
    /// The kind's name, as in [`crate::Game::material_kinds`].
    pub name: String,
    /// Value of one piece, centipawns.
    pub material: [i32; 2],
    /// Extra value of a piece held in hand.
    #[serde(default)]
    pub in_hand: [i32; 2],
    /// Value per cell reached.
    #[serde(default)]
    pub mobility: [i32; 2],
    /// Bonus for having two or more of the kind (the bishop pair).
    #[serde(default)]
    pub pair: [i32; 2],
    /// Per piece of the kind attacked by a cheaper enemy piece, or attacked and not defended,
    /// when its side is to move.
    #[serde(default)]
    pub threatened_moving: [i32; 2],
    /// The same when the other side is to move.
    #[serde(default)]
    pub threatened_waiting: [i32; 2],
    /// Per piece on a file without its side's pawns (variants with pawn structure).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub half_open_file: [i32; 2],
    /// Per piece on a file without any pawn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub open_file: [i32; 2],
    /// Per piece on an outpost (`eval::KindTerm::Outpost`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub outpost: [i32; 2],
    /// Per attack of a piece of the kind on a cell next to the enemy royal piece.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub zone_attacks: [i32; 2],
    /// Per safe check of the kind (`eval::KindTerm::SafeChecks`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub safe_checks: [i32; 2],
    /// Per cell a piece's mobility falls below three (`eval::KindTerm::Cramped`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cramped: [i32; 2],
    /// Per piece with a pawn on the next cell of its file (`eval::KindTerm::BehindPawn`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub behind_pawn: [i32; 2],
    /// Per step of a piece's distance from its royal piece (`eval::KindTerm::RoyalDistance`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub royal_distance: [i32; 2],
    /// Per own pawn on a colour-bound piece's colour (`eval::KindTerm::ColourPawns`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub colour_pawns: [i32; 2],
    /// Per cell next to the enemy royal piece that the kind attacks and only that royal piece
    /// defends (`eval::KindTerm::WeakZone`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub weak_zone: [i32; 2],
    /// Per cell a piece of the kind reaches that an enemy pawn attacks
    /// (`eval::KindTerm::UnsafeMobility`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unsafe_mobility: [i32; 2],
    /// Per piece of the kind that a safe enemy pawn push would attack
    /// (`eval::KindTerm::PushThreatened`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub push_threatened: [i32; 2],
    /// Per piece of the kind an enemy pawn attacks (`eval::KindTerm::PawnThreatened`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pawn_threatened: [i32; 2],
    /// Per piece of the kind pinned to its royal piece (`eval::KindTerm::Pinned`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pinned: [i32; 2],
    /// Per piece of the kind times its side's pawns (`eval::KindTerm::OwnPawns`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub own_pawns: [i32; 2],
    /// Cell table, middle game: one entry per cell index of the variant's bounding box (from
    /// White's side; `(level * ranks + rank) * files + file`); empty = all zero.
    #[serde(default)]
    pub cells_mg: Vec<i32>,
    /// Cell table, end game.
    #[serde(default)]
    pub cells_eg: Vec<i32>,
}

impl KindWeights {
    /// The weights of the [`KindTerm`]s, in the order of [`KindTerm::ALL`].
    fn terms(&self) -> [[i32; 2]; KindTerm::ALL.len()] {
        [
            self.half_open_file,
            self.open_file,
            self.outpost,
            self.zone_attacks,
            self.safe_checks,
            self.cramped,
            self.behind_pawn,
            self.royal_distance,
            self.colour_pawns,
            self.weak_zone,
            self.unsafe_mobility,
            self.push_threatened,
            self.pawn_threatened,
            self.pinned,
            self.own_pawns,
        ]
    }
}

/// A variant's evaluation weights, as stored in a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalWeights {
    /// The variant's command-line name.
    pub variant: String,
    /// How the weights were produced.
    pub produced: Provenance,
    /// Per attack on a cell next to the enemy royal piece.
    #[serde(default)]
    pub king_attack: [i32; 2],
    /// Per unit of the square term of the royal-zone attacks (`attacks² / 4`).
    #[serde(default)]
    pub king_danger: [i32; 2],
    /// A side with two or more threatened pieces, when it is to move.
    #[serde(default)]
    pub multiple_threats_moving: [i32; 2],
    /// The same when the other side is to move.
    #[serde(default)]
    pub multiple_threats_waiting: [i32; 2],
    /// For the side to move.
    #[serde(default)]
    pub tempo: [i32; 2],
    /// Per passed pawn by rank from its owner's side, middle game (variants with pawn
    /// structure; empty = all zero).
    #[serde(default)]
    pub passed_mg: Vec<i32>,
    /// Per passed pawn by rank, end game.
    #[serde(default)]
    pub passed_eg: Vec<i32>,
    /// Per doubled pawn (another of its side's pawns ahead on the same file).
    #[serde(default)]
    pub doubled: [i32; 2],
    /// Per isolated pawn (none of its side's pawns on the neighbouring files).
    #[serde(default)]
    pub isolated: [i32; 2],
    /// Per pawn one rank ahead of its royal piece, on its file or a neighbouring one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shelter_near: [i32; 2],
    /// The same two ranks ahead.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shelter_far: [i32; 2],
    /// Per pawn defended by a pawn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub supported: [i32; 2],
    /// Per passed pawn whose next cell is occupied.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_blocked: [i32; 2],
    /// Per step of the own royal piece's distance from a passed pawn's next cell, times the
    /// pawn's progress (`eval::passed_progress`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_own_royal: [i32; 2],
    /// The same for the enemy royal piece.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_enemy_royal: [i32; 2],
    /// Per enemy pawn in the royal piece's shelter cells.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub storm: [i32; 2],
    /// Per step of progress of a passed pawn with no piece ahead on its file.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub free_passed: [i32; 2],
    /// Per pawn with a pawn of its side beside it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub phalanx: [i32; 2],
    /// Per backward pawn (`eval::PawnDetails::backward`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub backward: [i32; 2],
    /// Per cell of space (`eval::PawnDetails::space`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub space: [i32; 2],
    /// Per step of progress of a passed pawn with a safe path (`eval::PawnDetails::safe_path`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_safe_path: [i32; 2],
    /// Per step of progress of a passed pawn with a safe next cell.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_safe_stop: [i32; 2],
    /// Per step of progress of a passed pawn whose next cell its side attacks.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_defended_stop: [i32; 2],
    /// Per material kind, in the order of the variant's kinds.
    pub kinds: Vec<KindWeights>,
}

/// A pair of weights left out of a file when both are zero (the pawn terms of a variant
/// without pawn structure).
fn is_zero(w: &[i32; 2]) -> bool {
    *w == [0, 0]
}

/// Weights that cannot serve a variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightsError {
    /// Not JSON of the expected shape.
    #[error("evaluation weights: {0}")]
    Syntax(String),
    /// Written for another variant.
    #[error("evaluation weights are for {found:?}, not {expected:?}")]
    Variant {
        /// The variant in use.
        expected: String,
        /// The file's variant.
        found: String,
    },
    /// Kinds missing, extra or out of order.
    #[error("evaluation weights: kinds {found:?} do not match the variant's {expected:?}")]
    Kinds {
        /// The variant's kinds.
        expected: Vec<String>,
        /// The file's kinds.
        found: Vec<String>,
    },
    /// A passed-pawn table longer than the board's ranks.
    #[error(
        "evaluation weights: the passed-pawn table has {found} entries, the board {expected} ranks"
    )]
    PawnRanks {
        /// The board's ranks (0 for a variant without pawn structure).
        expected: usize,
        /// Entries in the file.
        found: usize,
    },
    /// A cell table of the wrong length.
    #[error("evaluation weights: {kind}'s cell table has {found} entries, the board {expected}")]
    Cells {
        /// The kind.
        kind: String,
        /// The board's cell indices.
        expected: usize,
        /// Entries in the file.
        found: usize,
    },
}

impl EvalWeights {
    /// Reads weights from JSON text.
    ///
    /// # Errors
    /// [`WeightsError::Syntax`] naming the line and column.
    pub fn parse(text: &str) -> Result<EvalWeights, WeightsError> {
        serde_json::from_str(text).map_err(|e| WeightsError::Syntax(e.to_string()))
    }

    /// The weights laid out flat for `layout`, after checking the variant, kinds and cells.
    ///
    /// # Errors
    /// If the file does not fit the variant.
    pub fn dense(
        &self,
        variant: &str,
        kinds: &[(&'static str, i32)],
        layout: Layout,
    ) -> Result<Vec<[i32; 2]>, WeightsError> {
        if self.variant != variant {
            return Err(WeightsError::Variant {
                expected: variant.to_string(),
                found: self.variant.clone(),
            });
        }
        let names: Vec<&str> = self.kinds.iter().map(|k| k.name.as_str()).collect();
        if names.len() != kinds.len() || names.iter().zip(kinds).any(|(a, b)| *a != b.0) {
            return Err(WeightsError::Kinds {
                expected: kinds.iter().map(|k| k.0.to_string()).collect(),
                found: names.iter().map(|s| s.to_string()).collect(),
            });
        }
        let mut w = vec![[0; 2]; layout.len()];
        for (k, kw) in self.kinds.iter().enumerate() {
            for table in [&kw.cells_mg, &kw.cells_eg] {
                if !table.is_empty() && table.len() != layout.cells {
                    return Err(WeightsError::Cells {
                        kind: kw.name.clone(),
                        expected: layout.cells,
                        found: table.len(),
                    });
                }
            }
            w[layout.material(k)] = kw.material;
            w[layout.in_hand(k)] = kw.in_hand;
            w[layout.mobility(k)] = kw.mobility;
            w[layout.pair(k)] = kw.pair;
            w[layout.threatened(k, true)] = kw.threatened_moving;
            w[layout.threatened(k, false)] = kw.threatened_waiting;
            for (term, weight) in KindTerm::ALL.into_iter().zip(kw.terms()) {
                w[layout.kind_term(k, term)] = weight;
            }
            for c in 0..layout.cells {
                w[layout.cell(k, c)] = [
                    kw.cells_mg.get(c).copied().unwrap_or(0),
                    kw.cells_eg.get(c).copied().unwrap_or(0),
                ];
            }
        }
        w[layout.king_attack()] = self.king_attack;
        w[layout.tempo()] = self.tempo;
        w[layout.king_danger()] = self.king_danger;
        w[layout.multiple_threats(true)] = self.multiple_threats_moving;
        w[layout.multiple_threats(false)] = self.multiple_threats_waiting;
        for table in [&self.passed_mg, &self.passed_eg] {
            if table.len() > layout.pawn_ranks {
                return Err(WeightsError::PawnRanks {
                    expected: layout.pawn_ranks,
                    found: table.len(),
                });
            }
        }
        for r in 0..layout.pawn_ranks {
            w[layout.passed(r)] = [
                self.passed_mg.get(r).copied().unwrap_or(0),
                self.passed_eg.get(r).copied().unwrap_or(0),
            ];
        }
        w[layout.doubled()] = self.doubled;
        w[layout.isolated()] = self.isolated;
        w[layout.shelter(false)] = self.shelter_near;
        w[layout.shelter(true)] = self.shelter_far;
        w[layout.supported()] = self.supported;
        w[layout.blocked()] = self.passed_blocked;
        w[layout.royal_distance(false)] = self.passed_own_royal;
        w[layout.royal_distance(true)] = self.passed_enemy_royal;
        w[layout.storm()] = self.storm;
        w[layout.free_passed()] = self.free_passed;
        w[layout.phalanx()] = self.phalanx;
        w[layout.backward()] = self.backward;
        w[layout.space()] = self.space;
        w[layout.safe_path()] = self.passed_safe_path;
        w[layout.safe_stop()] = self.passed_safe_stop;
        w[layout.defended_stop()] = self.passed_defended_stop;
        Ok(w)
    }

    /// Weights for a file from a flat vector laid out by `layout`.
    pub fn from_dense(
        variant: &str,
        kinds: &[(&'static str, i32)],
        layout: Layout,
        w: &[[i32; 2]],
        produced: Provenance,
    ) -> EvalWeights {
        let kinds = kinds
            .iter()
            .enumerate()
            .map(|(k, (name, _))| KindWeights {
                name: name.to_string(),
                material: w[layout.material(k)],
                in_hand: w[layout.in_hand(k)],
                mobility: w[layout.mobility(k)],
                pair: w[layout.pair(k)],
                threatened_moving: w[layout.threatened(k, true)],
                threatened_waiting: w[layout.threatened(k, false)],
                half_open_file: w[layout.kind_term(k, KindTerm::HalfOpenFile)],
                open_file: w[layout.kind_term(k, KindTerm::OpenFile)],
                outpost: w[layout.kind_term(k, KindTerm::Outpost)],
                zone_attacks: w[layout.kind_term(k, KindTerm::ZoneAttacks)],
                safe_checks: w[layout.kind_term(k, KindTerm::SafeChecks)],
                cramped: w[layout.kind_term(k, KindTerm::Cramped)],
                behind_pawn: w[layout.kind_term(k, KindTerm::BehindPawn)],
                royal_distance: w[layout.kind_term(k, KindTerm::RoyalDistance)],
                colour_pawns: w[layout.kind_term(k, KindTerm::ColourPawns)],
                weak_zone: w[layout.kind_term(k, KindTerm::WeakZone)],
                unsafe_mobility: w[layout.kind_term(k, KindTerm::UnsafeMobility)],
                push_threatened: w[layout.kind_term(k, KindTerm::PushThreatened)],
                pawn_threatened: w[layout.kind_term(k, KindTerm::PawnThreatened)],
                pinned: w[layout.kind_term(k, KindTerm::Pinned)],
                own_pawns: w[layout.kind_term(k, KindTerm::OwnPawns)],
                cells_mg: (0..layout.cells).map(|c| w[layout.cell(k, c)][0]).collect(),
                cells_eg: (0..layout.cells).map(|c| w[layout.cell(k, c)][1]).collect(),
            })
            .collect();
        EvalWeights {
            variant: variant.to_string(),
            produced,
            king_attack: w[layout.king_attack()],
            tempo: w[layout.tempo()],
            king_danger: w[layout.king_danger()],
            multiple_threats_moving: w[layout.multiple_threats(true)],
            multiple_threats_waiting: w[layout.multiple_threats(false)],
            passed_mg: (0..layout.pawn_ranks)
                .map(|r| w[layout.passed(r)][0])
                .collect(),
            passed_eg: (0..layout.pawn_ranks)
                .map(|r| w[layout.passed(r)][1])
                .collect(),
            doubled: w[layout.doubled()],
            isolated: w[layout.isolated()],
            shelter_near: w[layout.shelter(false)],
            shelter_far: w[layout.shelter(true)],
            supported: w[layout.supported()],
            passed_blocked: w[layout.blocked()],
            passed_own_royal: w[layout.royal_distance(false)],
            passed_enemy_royal: w[layout.royal_distance(true)],
            storm: w[layout.storm()],
            free_passed: w[layout.free_passed()],
            phalanx: w[layout.phalanx()],
            backward: w[layout.backward()],
            space: w[layout.space()],
            passed_safe_path: w[layout.safe_path()],
            passed_safe_stop: w[layout.safe_stop()],
            passed_defended_stop: w[layout.defended_stop()],
            kinds,
        }
    }

    /// JSON with one line per field and every list of numbers on one line, so a file diffs
    /// and reads well.
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("weights serialise");
        let mut out = String::new();
        write_value(&value, 0, &mut out);
        out.push('\n');
        out
    }
}

fn write_value(v: &serde_json::Value, indent: usize, out: &mut String) {
    use serde_json::Value;
    let pad = |n: usize| "  ".repeat(n);
    match v {
        Value::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => {
            out.push_str(&serde_json::to_string(v).expect("numbers serialise"));
        }
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(indent + 1));
                write_value(item, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(indent));
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (k, item)) in map.iter().enumerate() {
                out.push_str(&pad(indent + 1));
                out.push_str(&serde_json::to_string(k).expect("keys serialise"));
                out.push_str(": ");
                write_value(item, indent + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(indent));
            out.push('}');
        }
        _ => out.push_str(&serde_json::to_string(v).expect("scalars serialise")),
    }
}

/// `(name, weights file)` of every registered variant, from the registry rows
/// ([`for_each_variant!`](crate::for_each_variant)): `data/eval/<name>.json` each.
macro_rules! embedded_weights {
    (() $( $(#[$doc:meta])* $kind:ident => $name:literal, $game:ty, $info:expr; )*) => {
        &[$( ($name, include_str!(concat!("../../../data/eval/", $name, ".json"))), )*]
    };
}

/// The tuned weights embedded in the binary, by variant name: the default evaluation of every
/// built-in variant (`docs/evaluation.md`), one file per variant of the registry, so the
/// variants are listed once. A variant file's variant has none and uses the classic
/// evaluation.
const EMBEDDED: &[(&str, &str)] = crate::for_each_variant!([embedded_weights], ());

/// The embedded default weights of a variant, parsed once.
pub fn builtin(variant: &str) -> Option<Arc<EvalWeights>> {
    static PARSED: OnceLock<HashMap<&'static str, Arc<EvalWeights>>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            EMBEDDED
                .iter()
                .map(|(name, text)| {
                    let w = EvalWeights::parse(text)
                        .unwrap_or_else(|e| panic!("embedded weights of {name}: {e}"));
                    (*name, Arc::new(w))
                })
                .collect()
        })
        .get(variant)
        .cloned()
}

#[cfg(test)]
mod tests {
    use crate::VariantKind;

    /// Every registered variant has embedded default weights, and they parse.
    #[test]
    fn every_registered_variant_has_its_default_weights() {
        for kind in VariantKind::ALL {
            assert!(super::builtin(kind.name()).is_some(), "{}", kind.name());
        }
        assert!(super::builtin("file").is_none());
    }
}

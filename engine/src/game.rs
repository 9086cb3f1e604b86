//! The interface every variant's position offers to perft, search and self-play.

use crate::error::MoveError;
use crate::moves::{Move, MoveBuf, MoveKind};
use crate::{Color, Outcome, Termination};

/// The royal pieces' cells as (file, rank, level), White's first, in the board's bounding box
/// of `dims` (files, ranks, levels; one level on a flat board): what the mop-up term needs to
/// drive a lone royal piece to the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoyalCells {
    /// (file, rank, level) of White's and Black's royal piece, 0-based.
    pub cells: [(i16, i16, i16); 2],
    /// Files, ranks and levels of the board's bounding box (128 ranks do not fit an `i8`).
    pub dims: (i16, i16, i16),
}

/// One special rule a move uses ([`Game::rules_used`]): the rule's name and, where the rule
/// comes in kinds (a promotion, a drop), the piece's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleUse {
    /// The rule, as `usage.csv` names it (`castling`, `drop`, `absorption`).
    pub rule: &'static str,
    /// The piece promoted to or dropped, by its material kind's name.
    pub kind: Option<&'static str>,
}

/// A position of some variant, as the generic tools see it. Implemented by the chess-family
/// [`crate::position::Position`] and by variants whose state does not fit it.
pub trait Game: Clone + Send + Sync + 'static {
    /// The variant's move list type, sized for its most mobile positions.
    type Moves: MoveBuf;

    /// The variant's start position.
    fn start() -> Self;
    /// Reads a position in the variant's text format.
    ///
    /// # Errors
    /// A located syntax error or a description of why the position is impossible.
    fn from_text(text: &str) -> Result<Self, crate::error::PositionError>;
    /// The variant's command-line name.
    fn variant_name(&self) -> &'static str;
    /// Side to move.
    fn turn(&self) -> Color;
    /// Appends every legal move to `out` (which the caller has cleared).
    fn legal_moves(&self, out: &mut Self::Moves);
    /// Plays a legal move (from [`Game::legal_moves`]) without checking it.
    fn play_unchecked(&mut self, m: Move);
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Zobrist hash: equal positions (for repetition) have equal hashes.
    fn hash(&self) -> u64;
    /// Plies since the last capture or irreversible move, for the move-count rule and for
    /// bounding repetition look-ups.
    fn halfmove_clock(&self) -> u32;
    /// How many plies back a repeated position can be: the halfmove clock where a capture
    /// cannot be undone; more where a captured piece goes to hand and can come back.
    fn repetition_plies(&self) -> u32 {
        self.halfmove_clock()
    }
    /// Plies after which the move-count rule ends the game as a draw (100 = 50 moves each).
    fn move_rule_plies(&self) -> u32 {
        100
    }
    /// The result when the side to move has no legal move and is not in check (a draw in
    /// chess; some variants score it as a loss or a win for the stalemated side).
    fn stalemate(&self) -> Outcome {
        Outcome::Draw {
            reason: Termination::Stalemate,
        }
    }
    /// When a repeated position ends the game (chess: its third occurrence draws); the
    /// search scores a position repeated on its path by the rule's result.
    fn repetition(&self) -> crate::rules::RepetitionRule {
        crate::rules::RepetitionRule::THREEFOLD
    }
    /// Whether neither side can possibly win any more.
    fn insufficient_material(&self) -> bool {
        false
    }
    /// The position with the turn passed to the opponent and nothing else changed (no
    /// en passant right survives it), for null-move pruning; `None` where passing makes no
    /// sense for the variant (the search then does not try it).
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// A variant-specific end that is decided by the position alone, checked before the
    /// generic rules (none by default).
    fn variant_outcome(&self) -> Option<Outcome> {
        None
    }
    /// The kinds of material the evaluation and statistics count, with default values in
    /// centipawns, in a fixed order. For most variants these are the pieces; a variant whose
    /// pieces are built from parts (Extreme 2D's discs) may count the parts instead.
    fn material_kinds(&self) -> Vec<(&'static str, i32)>;
    /// How much of each material kind each side has (White first), in the order of
    /// [`Game::material_kinds`]; pieces in hand count too.
    fn material(&self) -> Material;
    /// A key of the part of the position whose misjudgements by the static evaluation the
    /// search learns to correct ([`crate::search::Technique::CorrectionHistory`]): by default
    /// the material of both sides (hand included), which changes only by captures,
    /// promotions and drops.
    fn correction_key(&self) -> u64 {
        let m = self.material();
        crate::zobrist::fnv1a(m.iter().flatten().flat_map(|n| n.to_le_bytes()))
    }
    /// Whether `m`, a move of this variant but perhaps of another position (the
    /// transposition table's), is one of [`Game::legal_moves`]'s here, where the variant can
    /// tell without generating them; `None` where it cannot. The search then plays the
    /// table's move before generating the rest, and a node it cuts generates nothing.
    fn is_legal_move(&self, _m: Move) -> Option<bool> {
        None
    }
    /// Whether a move changes material (a capture, a promotion, a drop): the moves the
    /// quiescence search looks at.
    fn is_tactical(&self, m: Move) -> bool;
    /// The moves the quiescence search needs: `out` gets at least every legal tactical move
    /// (and every legal move when in check); the answer says whether the position has any
    /// legal move at all. The default is the whole legal list; a variant whose quiet moves
    /// are many (drops) can leave them out once it knows one exists.
    fn quiescence_moves(&self, out: &mut Self::Moves) -> bool {
        self.legal_moves(out);
        !out.as_ref().is_empty()
    }
    /// Ordering score of a tactical move: most valuable victim first, least valuable attacker
    /// next (`16 * victim - attacker`, plus any promotion gain), with `values` indexed like
    /// [`Game::material_kinds`].
    fn tactical_order(&self, m: Move, values: &[i32]) -> i32;
    /// The material kind (an index into [`Game::material_kinds`]) of the piece that makes
    /// the legal move `m` here (for a drop, the kind dropped), for the search's capture and
    /// continuation histories; `None` where the variant does not say (the search then keys
    /// its tables by the move's cells instead).
    fn moving_kind(&self, _m: Move) -> Option<usize> {
        None
    }
    /// The material kind of the piece the legal move `m` captures; `None` for a move that
    /// captures nothing, or where the variant does not say.
    fn captured_kind(&self, _m: Move) -> Option<usize> {
        None
    }
    /// Static exchange evaluation of the legal move `m`: the material (by `values`, indexed
    /// like [`Game::material_kinds`]) the side to move wins or loses when both sides then
    /// recapture on the target cell, least valuable piece first, each free to stop; `None`
    /// where the variant cannot tell cheaply (the search then orders by
    /// [`Game::tactical_order`] alone and prunes nothing by it).
    fn see(&self, _m: Move, _values: &[i32]) -> Option<i32> {
        None
    }
    /// Whether [`Game::see`] of `m` is at least `threshold` (`None` where it is unknown): what
    /// the search asks. A variant may answer it without the whole exchange when one capture
    /// settles it.
    fn see_at_least(&self, m: Move, values: &[i32], threshold: i32) -> Option<bool> {
        self.see(m, values).map(|v| v >= threshold)
    }
    /// Where each side's royal piece stands on a flat board (White first), for the
    /// search's mop-up term; `None` where a side has no single royal cell (Gateway's Quantum
    /// King spread over a row, Extreme 2D's stacks) or the royal piece is not on the board.
    fn royal_cells(&self) -> Option<RoyalCells> {
        None
    }
    /// Positional score in centipawns from the side to move's point of view (mobility,
    /// centralisation): a few cheap, documented terms on top of material.
    fn positional(&self) -> i32 {
        0
    }
    /// Cell indices of the evaluation's cell tables (the bounding box of the board); 0 for a
    /// variant that reports no cells.
    fn eval_cells(&self) -> usize {
        0
    }
    /// Ranks of the evaluation's passed-pawn table: the board's ranks where the variant
    /// reports pawn structure ([`crate::eval::FeatureSink::passed`]), else 0.
    fn pawn_ranks(&self) -> usize {
        0
    }
    /// Reports the evaluation's features to `sink` (`crate::eval`): every piece on its cell
    /// (numbered from its owner's side), mobility and royal-zone attacks where the variant
    /// has cheap attack tables, pieces in hand, pawn structure. Material (and pairs of a
    /// kind) is counted by the caller from [`Game::material`].
    fn eval_features<S: crate::features::FeatureSink>(&self, _sink: &mut S) {}
    /// What the network inputs hold beyond pieces on cells (`crate::nnue`): hands and the
    /// variant's extra state.
    fn net_shape(&self) -> crate::features::NetShape {
        crate::features::NetShape::default()
    }
    /// Reports the network's inputs (`crate::nnue`): every piece on its cell, numbered from its
    /// owner's side as in [`Game::eval_features`], pieces in hand, and the extra state of
    /// [`Game::net_shape`]. The default takes the pieces from [`Game::eval_features`] with a
    /// sink that wants no activity terms; a variant overrides it where that walk costs more,
    /// or to add its extras.
    fn net_inputs<S: crate::features::InputSink>(&self, sink: &mut S) {
        self.eval_features(&mut crate::features::PiecesOnly(sink));
    }
    /// Reports the network inputs that differ between `before` and this position: to `gone`
    /// each piece that left a cell of `before` (or a hand count of `before` that changed),
    /// to `came` each piece now on a cell that held something else (or the new hand count).
    /// Reporting a whole hand count to each side is exact: the inputs both counts share
    /// cancel. `false` (and nothing reported) where the variant cannot tell: the search then
    /// lists both positions' inputs and compares them, which costs more. For a position a move
    /// or two from `before` this is a handful of inputs, so the accumulators are updated from
    /// the move, not summed again (`crate::nnue::NetStack`).
    fn net_input_changes<S: crate::features::InputSink>(
        &self,
        _before: &Self,
        _gone: &mut S,
        _came: &mut S,
    ) -> bool {
        false
    }
    /// The position with one piece of material kind `kind` removed from `color` (the
    /// lowest-numbered such cell; no en passant right kept), for material-odds games and
    /// trade openings; `None` where the variant cannot remove that kind (a royal piece, a
    /// kind not on the board, or not supported).
    fn without_material(&self, _color: Color, _kind: usize) -> Option<Self> {
        None
    }
    /// How the position is drawn (`crate::diagram`): every cell of the board and of any side
    /// board (hands, token grids) with what stands on it, in an order and layout that are the
    /// same for every position of the variant, so a report can draw any variant's games.
    fn diagram(&self) -> crate::diagram::Diagram;
    /// The position in the variant's text format.
    fn to_text(&self) -> String;
    /// A move in the variant's coordinate notation.
    fn move_text(&self, m: Move) -> String;

    /// The special rules the legal move `m` uses here, for the rule-usage table of
    /// `variantlab stats` (`usage.csv`); empty for an ordinary move or capture. The default
    /// names the move's kind ([`MoveKind::rule_name`]), with the piece promoted to or dropped
    /// (by [`Game::material_kinds`], indexed by the move's role); a variant whose rules show
    /// in ordinary-looking moves (Extreme 2D's absorptions and area moves) says more. Outside
    /// the search only: it may allocate.
    fn rules_used(&self, m: Move) -> Vec<RuleUse> {
        rules_of_kind(self, m, m.role().index())
    }

    /// The legal move whose text is `text`, if any.
    fn parse_move(&self, text: &str) -> Option<Move> {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves
            .as_ref()
            .iter()
            .copied()
            .find(|&m| self.move_text(m) == text)
    }

    /// Plays the move written `text`.
    ///
    /// # Errors
    /// If it is not a legal move here.
    fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text).ok_or_else(|| MoveError {
            text: text.to_string(),
            position: self.to_text(),
        })?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Plays `m` if it is legal; returns whether it was.
    fn try_play(&mut self, m: Move) -> bool {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        if moves.as_ref().contains(&m) {
            self.play_unchecked(m);
            true
        } else {
            false
        }
    }
}

/// Most material kinds any variant counts.
pub const MAX_KINDS: usize = 32;

/// Material per side (White first), per kind.
pub type Material = [[u16; MAX_KINDS]; 2];

/// The result of the game at `pos`, given the hashes of earlier positions of the game (oldest
/// first, not including `pos`). Checkmate and stalemate come first, then the variant's own
/// rules, insufficient material, the move-count rule and repetition.
pub fn outcome<G: Game>(pos: &G, history: &[u64]) -> Option<Outcome> {
    if let Some(o) = pos.variant_outcome() {
        return Some(o);
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return Some(if pos.in_check() {
            Outcome::Decisive {
                winner: !pos.turn(),
                reason: Termination::Checkmate,
            }
        } else {
            pos.stalemate()
        });
    }
    if pos.insufficient_material() {
        return Some(Outcome::Draw {
            reason: Termination::InsufficientMaterial,
        });
    }
    if pos.halfmove_clock() >= pos.move_rule_plies() {
        return Some(Outcome::Draw {
            reason: Termination::MoveRule,
        });
    }
    let repetition = pos.repetition();
    if repetition.ends(repetitions(pos, history)) {
        return Some(
            repetition
                .result
                .outcome(pos.turn(), Termination::Repetition),
        );
    }
    None
}

/// A legal move of `pos` drawn uniformly with one draw of `rng`, or `None` (and no draw) when
/// there is none: the random plies of openings, bench positions, odds games and tests.
pub fn random_move<G: Game>(pos: &G, rng: &mut crate::zobrist::SplitMix64) -> Option<Move> {
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    let list = moves.as_ref();
    (!list.is_empty()).then(|| list[(rng.next() % list.len() as u64) as usize])
}

/// How many earlier positions equal `pos` (same hash, same side to move), looking back only
/// as far as one could be ([`Game::repetition_plies`]).
pub fn repetitions<G: Game>(pos: &G, history: &[u64]) -> usize {
    let h = pos.hash();
    let back = (pos.repetition_plies() as usize).min(history.len());
    history[history.len() - back..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&x| x == h)
        .count()
}

/// [`Game::rules_used`]'s default: the rule of the move's kind ([`MoveKind::rule_name`]), with
/// material kind `kind` (an index into [`Game::material_kinds`]) named for a promotion or a
/// drop.
pub fn rules_of_kind<G: Game>(pos: &G, m: Move, kind: usize) -> Vec<RuleUse> {
    let Some(rule) = m.kind().rule_name() else {
        return Vec::new();
    };
    let kind = matches!(m.kind(), MoveKind::Promotion | MoveKind::Drop)
        .then(|| pos.material_kinds().get(kind).map(|k| k.0))
        .flatten();
    vec![RuleUse { rule, kind }]
}

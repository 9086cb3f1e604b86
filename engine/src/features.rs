//! What a position reports to the evaluation ([`FeatureSink`] and its per-kind and pawn terms),
//! apart from `eval` so that [`crate::game::Game::eval_features`] can name the sink without
//! `game` and `eval` depending on each other; `eval` re-exports all of it.

use crate::Color;

/// Where a position's features go: the search adds up weights, the tuner records counts.
pub trait FeatureSink {
    /// A piece of material kind `kind` of `color` stands on `cell`, numbered from its owner's
    /// side (the rank mirror applied for Black).
    fn piece(&mut self, color: Color, kind: usize, cell: usize);
    /// A piece of kind `kind` of `color` reaches `cells` cells not held by its own side.
    fn mobility(&mut self, color: Color, kind: usize, cells: u32);
    /// `color` attacks the cells next to the enemy royal piece `attacks` times.
    fn king_attacks(&mut self, color: Color, attacks: u32);
    /// `count` pieces of kind `kind` of `color` are attacked by a cheaper enemy piece, or
    /// attacked and not defended; `to_move` says whether `color` moves next (and so may save
    /// them) or not (and may lose one).
    fn threatened(&mut self, color: Color, kind: usize, to_move: bool, count: u32);
    /// `color` has two or more threatened pieces (of any kinds).
    fn multiple_threats(&mut self, color: Color, to_move: bool);
    /// `color` attacks the cells next to the enemy royal piece `attacks` times: the square
    /// term, `attacks² / 4`.
    fn king_danger(&mut self, color: Color, attacks: u32);
    /// `color` holds `count` pieces of kind `kind` in hand.
    fn in_hand(&mut self, color: Color, kind: usize, count: u32);
    /// Whether the mobility, royal-zone and threat features count here. A variant whose
    /// attack walk is costly may skip it when they do not (weights that leave them at zero).
    fn wants_activity(&self) -> bool {
        true
    }
    /// A passed pawn of `color` stands on rank `rank` counted from its owner's side (0-based,
    /// below [`crate::game::Game::pawn_ranks`]).
    fn passed(&mut self, color: Color, rank: usize);
    /// `color` has `doubled` pawns with another of its pawns ahead on the same file and
    /// `isolated` pawns with none of its pawns on the neighbouring files.
    fn pawn_structure(&mut self, color: Color, doubled: u32, isolated: u32);
    /// `count` pieces of kind `kind` of `color` score the per-kind term `term`.
    fn kind_term(&mut self, color: Color, kind: usize, term: KindTerm, count: u32);
    /// `color`'s shelter, supported pawns and passed-pawn details (variants with pawn
    /// structure).
    fn pawn_details(&mut self, color: Color, details: PawnDetails);
}

/// Per-kind terms besides material, cells, mobility and threats, each with its own weight per
/// kind, so the tuner says which kinds they matter for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindTerm {
    /// A piece on a file without pawns of its side (variants with pawn structure).
    HalfOpenFile,
    /// A piece on a file without any pawn.
    OpenFile,
    /// A piece in the enemy half, defended by a pawn of its side, that no enemy pawn can ever
    /// attack (none on the neighbouring files ahead of it).
    Outpost,
    /// Attacks of the kind's pieces on the cells next to the enemy royal piece (on top of the
    /// royal-zone attacks of every kind together).
    ZoneAttacks,
    /// Cells from which a piece of the kind would check the enemy royal piece, that one of
    /// the kind can move to and that no enemy piece attacks (safe checks). Why: a royal
    /// zone's attackers are a threat only where a check can follow.
    SafeChecks,
    /// How far below three cells a piece's mobility falls (`3 − cells`, at least 0). Why: a
    /// piece with no move or one is worth much less than the linear mobility weight says (a
    /// trapped piece), while each cell beyond a few adds little.
    Cramped,
    /// A piece with a pawn (of either side) on the next cell of its file, towards the enemy
    /// (variants with pawn structure). Why: the pawn shields it from the enemy's pieces on
    /// the file, and a minor piece there cannot be driven off by that pawn.
    BehindPawn,
    /// The piece's distance in royal steps (the larger of the file and rank distances) from
    /// its own royal piece (variants with pawn structure). Why: a piece near its royal piece
    /// defends it; the cell tables cannot say where the royal piece stands.
    RoyalDistance,
    /// Own pawns on the colour of a piece that never leaves its colour (chess's Bishop; the
    /// count summed over the kind's pieces). Why: such pawns block the piece and leave the
    /// other colour to the enemy (a "bad" bishop).
    ColourPawns,
    /// Attacks of the kind's pieces on the cells next to the enemy royal piece that no enemy
    /// piece but the royal one defends (the kind's attacked cells counted once each). Why:
    /// an attack on a cell the defence covers twice threatens less than one on a cell only
    /// the royal piece guards, where a piece can land with check or mate.
    WeakZone,
    /// Cells a piece of the kind reaches (not held by its side) that an enemy pawn attacks
    /// (variants with pawn structure). Why: a piece cannot go there without being chased or
    /// lost for a pawn, so those cells are worth less mobility than the rest.
    UnsafeMobility,
    /// Pieces of the kind (pawns excepted) that an enemy pawn would attack after a safe push:
    /// a step forward to an empty cell no pawn of the kind's side attacks and that the enemy
    /// defends or the kind's side does not attack (variants with pawn structure). Why: the
    /// push gains time by chasing the piece, which the threats as they stand do not see.
    PushThreatened,
    /// Pieces of the kind (pawns and the royal piece excepted) that an enemy pawn attacks
    /// (variants with pawn structure). Why: a pawn's threat is the cheapest there is and the
    /// hardest to parry, which the threatened pieces of every attacker together do not say.
    PawnThreatened,
    /// Pieces of the kind pinned to their own royal piece by an enemy rider (chess family).
    /// Why: a pinned piece neither moves freely nor defends what it seems to defend.
    Pinned,
    /// The kind's pieces times the pawns (the cheapest kind) of their side, for every kind
    /// but the cheapest, from the material counts (every variant). Why: a piece's worth
    /// depends on the pawns beside it (a Knight gains as the board stays closed, a Rook as
    /// files open), which one material weight per kind cannot say.
    OwnPawns,
}

impl KindTerm {
    /// Every term, in the order of their weights in a kind's block.
    pub const ALL: [KindTerm; 15] = [
        KindTerm::HalfOpenFile,
        KindTerm::OpenFile,
        KindTerm::Outpost,
        KindTerm::ZoneAttacks,
        KindTerm::SafeChecks,
        KindTerm::Cramped,
        KindTerm::BehindPawn,
        KindTerm::RoyalDistance,
        KindTerm::ColourPawns,
        KindTerm::WeakZone,
        KindTerm::UnsafeMobility,
        KindTerm::PushThreatened,
        KindTerm::PawnThreatened,
        KindTerm::Pinned,
        KindTerm::OwnPawns,
    ];
}

/// One side's pawn terms besides passed, doubled and isolated pawns, where the variant has
/// pawn structure. Why: a linear table of cells cannot say that a royal piece wants its pawns
/// in front of it wherever it stands, nor that a passed pawn needs its own royal piece near
/// its path and the enemy's far from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnDetails {
    /// Own pawns one rank ahead of the own royal piece, on its file or a neighbouring one.
    pub shelter_near: u32,
    /// The same two ranks ahead.
    pub shelter_far: u32,
    /// Enemy pawns on those cells (a pawn storm).
    pub storm: u32,
    /// Pawns that another pawn of their side defends.
    pub supported: u32,
    /// Passed pawns whose next cell is occupied.
    pub blocked: u32,
    /// Over the passed pawns: the own royal piece's distance (in king steps, at most 5) from
    /// the pawn's next cell, times how far the pawn has advanced beyond the first quarter of
    /// the board ([`crate::eval::passed_progress`]).
    pub own_royal_distance: u32,
    /// The same for the enemy royal piece.
    pub enemy_royal_distance: u32,
    /// Over the passed pawns with no piece ahead on their file: their progress.
    pub free_passed: u32,
    /// Pawns with a pawn of their side beside them (same rank, neighbouring file).
    pub phalanx: u32,
    /// Pawns that are not isolated but have none of their side's pawns on the neighbouring
    /// files level with or behind them, and whose next cell an enemy pawn attacks: they
    /// cannot advance safely and no pawn can come to defend them.
    pub backward: u32,
    /// Cells of the side's space ([`crate::rules::PawnStructure::space`]) not held by its
    /// pawns and not attacked by enemy pawns, those behind one of its pawns counted twice.
    pub space: u32,
    /// Over the passed pawns none of whose cells ahead on their file an enemy piece holds or
    /// attacks: their progress. Why: such a pawn walks in unless a piece comes to stop it,
    /// which the free passed pawn (nothing ahead) does not say.
    pub safe_path: u32,
    /// Over the passed pawns whose next cell is empty and not attacked by the enemy: their
    /// progress (the pawn can take its next step now).
    pub safe_stop: u32,
    /// Over the passed pawns whose next cell their side attacks: their progress (the step is
    /// supported even where the enemy contests it).
    pub defended_stop: u32,
}

/// Where a position's network inputs go (`crate::nnue`): the pieces on their cells and in
/// hand, as [`FeatureSink`] reports them, plus the variant's state that no piece shows.
pub trait InputSink {
    /// A piece of material kind `kind` of `color` stands on `cell`, numbered from its owner's
    /// side (the same numbering as [`FeatureSink::piece`]); a cell may hold several (an
    /// Extreme 2D stack's discs).
    fn piece(&mut self, color: Color, kind: usize, cell: usize);
    /// `color` holds `count` pieces of kind `kind` in hand.
    fn in_hand(&mut self, color: Color, kind: usize, count: u32);
    /// The variant's extra input `index` (below [`NetShape::extras`]) is on: owned by `owner`
    /// (the network sees it as its own or the enemy's), or by neither side (`None`: seen as it
    /// is from each side).
    fn extra(&mut self, owner: Option<Color>, index: usize);
}

/// What a variant's network inputs hold beyond pieces on cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetShape {
    /// Pieces in hand counted per kind up to this many (0: no hands).
    pub hand: usize,
    /// Extra inputs ([`InputSink::extra`]).
    pub extras: usize,
}

/// A [`FeatureSink`] that passes the pieces on cells and in hand to an [`InputSink`] and
/// wants nothing else: the default network inputs of a variant whose evaluation features
/// report its pieces before its activity terms.
pub struct PiecesOnly<'a, S: InputSink>(pub &'a mut S);

impl<S: InputSink> FeatureSink for PiecesOnly<'_, S> {
    fn piece(&mut self, color: Color, kind: usize, cell: usize) {
        self.0.piece(color, kind, cell);
    }
    fn in_hand(&mut self, color: Color, kind: usize, count: u32) {
        self.0.in_hand(color, kind, count);
    }
    fn wants_activity(&self) -> bool {
        false
    }
    fn mobility(&mut self, _: Color, _: usize, _: u32) {}
    fn king_attacks(&mut self, _: Color, _: u32) {}
    fn threatened(&mut self, _: Color, _: usize, _: bool, _: u32) {}
    fn multiple_threats(&mut self, _: Color, _: bool) {}
    fn king_danger(&mut self, _: Color, _: u32) {}
    fn passed(&mut self, _: Color, _: usize) {}
    fn pawn_structure(&mut self, _: Color, _: u32, _: u32) {}
    fn kind_term(&mut self, _: Color, _: usize, _: KindTerm, _: u32) {}
    fn pawn_details(&mut self, _: Color, _: PawnDetails) {}
}

//! Ways a chess-family game ends besides checkmate and stalemate (issue #56): a flag piece
//! reaching its region, the Nth check, a kind of piece going extinct. Described in
//! [`EndRules`] (part of a [`VariantSpec`](crate::rules::VariantSpec)), compiled once into
//! [`EndTables`], and tested by `Position::end_outcome` (position.rs) through `Game::variant_outcome`, so
//! the search and self-play learn of them as of any variant's end. A variant without them
//! pays one branch per node.
//!
//! The semantics are Fairy-Stockfish's (`is_immediate_game_end`), tested in its order at the
//! start of a turn, before move generation and so before checkmate and stalemate:
//! extinction, then the flag, then the check count.

use crate::bitboard::Bitboard;
use crate::geometry::Topology;
use crate::{Color, Outcome, Role, Termination};

/// Most checks a check-counting variant may count (Fairy-Stockfish writes each side's count
/// as one digit).
pub const MAX_CHECKS: u8 = 9;

/// The variant's own ends, all optional.
#[derive(Clone, Debug, Default)]
pub struct EndRules {
    /// A side wins when its flag piece stands in its flag region (King of the Hill).
    pub flag: Option<FlagRule>,
    /// A side wins by giving this many checks (3-check: 3); the position text then carries
    /// each side's checks still to give.
    pub check_count: Option<u8>,
    /// A side whose pieces of some listed kind are gone loses (or wins, or draws).
    pub extinction: Option<ExtinctionRule>,
}

impl EndRules {
    /// Whether the variant has none of these rules.
    pub fn is_empty(&self) -> bool {
        self.flag.is_none() && self.check_count.is_none() && self.extinction.is_none()
    }
}

/// Capture the flag, as Fairy-Stockfish's `flagPiece` and `flagRegion` with `flagMove =
/// false`: the game ends as soon as the side that just moved has `count` flag pieces in its
/// region, or (with `blocked_win`) at least one there and the region full.
#[derive(Clone, Debug)]
pub struct FlagRule {
    /// Letter of the flag piece (the same for both sides); `None`: any piece (Fairy-Stockfish's
    /// default `flagPiece = *`).
    pub piece: Option<char>,
    /// The flag region of each side, White first, by cell name.
    pub region: [Vec<&'static str>; 2],
    /// How many flag pieces must stand in the region (Fairy-Stockfish's `flagPieceCount`: 1).
    pub count: u8,
    /// Whether one flag piece there wins once no cell of the region is empty
    /// (`flagPieceBlockedWin`: a region the opponent blocks).
    pub blocked_win: bool,
}

/// What an end other than checkmate means for the side it concerns: the side whose pieces
/// went extinct, the stalemated side, the side to move at a repetition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndValue {
    /// It loses (Fairy-Stockfish's `extinctionValue = loss`).
    Loss,
    /// It wins.
    Win,
    /// A draw (chess's stalemate and repetition).
    Draw,
}

impl EndValue {
    /// The name the variant files use (Fairy-Stockfish's too).
    pub fn name(self) -> &'static str {
        match self {
            EndValue::Loss => "loss",
            EndValue::Win => "win",
            EndValue::Draw => "draw",
        }
    }

    /// The value [`EndValue::name`] calls `word`.
    pub fn named(word: &str) -> Option<EndValue> {
        [EndValue::Loss, EndValue::Win, EndValue::Draw]
            .into_iter()
            .find(|v| v.name() == word)
    }

    /// The game's outcome when the end concerns `side`.
    pub fn outcome(self, side: Color, reason: Termination) -> Outcome {
        match self {
            EndValue::Loss => Outcome::Decisive {
                winner: !side,
                reason,
            },
            EndValue::Win => Outcome::Decisive {
                winner: side,
                reason,
            },
            EndValue::Draw => Outcome::Draw { reason },
        }
    }
}

/// Extinction, as Fairy-Stockfish's `extinction*` keys: a side with at most `count` pieces of
/// one of the listed kinds, while the opponent has at least `opponent_count` of that kind,
/// has `value`.
#[derive(Clone, Debug)]
pub struct ExtinctionRule {
    /// Letters of the kinds that must not die out; `*` counts all of a side's pieces together
    /// (Fairy-Stockfish's `ALL_PIECES`: Horde's White loses when its last piece goes).
    pub pieces: &'static [char],
    /// The result for the side whose kind died out.
    pub value: EndValue,
    /// At most this many left is extinct (Fairy-Stockfish's default: 0).
    pub count: u8,
    /// ... while the opponent has at least this many of the kind (default 0).
    pub opponent_count: u8,
}

/// [`EndRules`] compiled against the board and the roles.
#[derive(Clone, Debug)]
pub struct EndTables<B> {
    /// The flag rule, compiled.
    pub flag: Option<FlagTable<B>>,
    /// Checks to give to win.
    pub check_count: Option<u8>,
    /// Hash keys of each side's checks still to give (0 ..= [`MAX_CHECKS`]).
    pub check_keys: [[u64; MAX_CHECKS as usize + 1]; 2],
    /// The extinct kinds as a role bit set, whether all pieces together count (`*`), the
    /// value, and the two counts.
    pub extinction: Option<(u64, bool, EndValue, u8, u8)>,
}

/// [`FlagRule`] on the board.
#[derive(Clone, Debug)]
pub struct FlagTable<B> {
    /// The flag piece's role (`None`: any piece).
    pub role: Option<Role>,
    /// Each side's region, White first.
    pub region: [B; 2],
    /// [`FlagRule::count`].
    pub count: u8,
    /// [`FlagRule::blocked_win`].
    pub blocked_win: bool,
}

impl<B: Bitboard> FlagTable<B> {
    /// Whether `side`, whose flag pieces are `flags`, has won by the flag with the board's
    /// cells `occupied`.
    pub fn reached(&self, side: Color, flags: B, occupied: B) -> bool {
        let region = self.region[side.index()];
        let there = flags & region;
        there.any()
            && (there.count() >= u32::from(self.count)
                || (self.blocked_win && (region & !occupied).is_empty()))
    }
}

impl<B: Bitboard> EndTables<B> {
    /// The tables of `end`, or `None` when it has no rule. `role_of` resolves the letters,
    /// and the cell names are looked up on `topo`: both checked by the file reader.
    pub fn compile(
        end: &EndRules,
        topo: &Topology,
        role_of: impl Fn(char) -> Role,
        seed: u64,
    ) -> Option<EndTables<B>> {
        if end.is_empty() {
            return None;
        }
        let set = |names: &[&str]| -> B {
            let mut b = B::EMPTY;
            for n in names {
                b.insert(
                    topo.parse_square(n)
                        .unwrap_or_else(|| panic!("no cell {n}")),
                );
            }
            b
        };
        // Keys of their own generator, so the piece, side and castling keys of every variant
        // stay what they were.
        let mut rng = crate::zobrist::SplitMix64(seed ^ 0x636865_636b73);
        let mut check_keys = [[0; MAX_CHECKS as usize + 1]; 2];
        for k in check_keys.iter_mut().flatten() {
            *k = rng.next();
        }
        Some(EndTables {
            flag: end.flag.as_ref().map(|f| FlagTable {
                role: f.piece.map(&role_of),
                region: [set(&f.region[0]), set(&f.region[1])],
                count: f.count,
                blocked_win: f.blocked_win,
            }),
            check_count: end.check_count,
            check_keys,
            extinction: end.extinction.as_ref().map(|x| {
                let roles = x
                    .pieces
                    .iter()
                    .filter(|&&c| c != '*')
                    .fold(0u64, |m, &c| m | 1 << role_of(c).index());
                let all = x.pieces.contains(&'*');
                (roles, all, x.value, x.count, x.opponent_count)
            }),
        })
    }

    /// Hash key of the check counters.
    #[inline]
    pub fn checks_key(&self, checks: [u8; 2]) -> u64 {
        if self.check_count.is_none() {
            return 0;
        }
        self.check_keys[0][checks[0].min(MAX_CHECKS) as usize]
            ^ self.check_keys[1][checks[1].min(MAX_CHECKS) as usize]
    }
}

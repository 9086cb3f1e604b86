//! One game between two engine configurations.

use variantlab_engine::game::{outcome, Game, MAX_KINDS};
use variantlab_engine::search::{Limits, Searcher, MATE_BOUND};
use variantlab_engine::{Color, Outcome};

/// Adjudication rules; both off by default, and recorded in `run.json` when on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Adjudication {
    /// Max plies; the game is a draw after that many (0 = unlimited).
    pub max_plies: u32,
    /// Resign: a side whose own search scores at most `-cp` for `moves` of its moves in a
    /// row loses.
    pub resign: Option<(i32, u32)>,
    /// Draw: both searches within `cp` of 0 for `moves` plies in a row, from ply `from`.
    pub draw: Option<(i32, u32, u32)>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules.
    Rules(Outcome),
    /// The ply limit.
    MaxPlies,
    /// Resign adjudication: the winner.
    Resign(Color),
    /// Draw adjudication.
    DrawAdjudicated,
}

impl GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Rules(Outcome::Decisive { winner, .. }) | GameEnd::Resign(winner) => {
                Some(winner)
            }
            _ => None,
        }
    }

    /// The termination column.
    pub fn reason(self) -> &'static str {
        match self {
            GameEnd::Rules(Outcome::Decisive { reason, .. } | Outcome::Draw { reason }) => {
                reason.name()
            }
            GameEnd::MaxPlies => "max_plies",
            GameEnd::Resign(_) | GameEnd::DrawAdjudicated => "adjudication",
        }
    }
}

/// One ply as recorded in `moves.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyRecord {
    /// The move in the variant's notation.
    pub mv: String,
    /// Who moved.
    pub side: Color,
    /// Material before the move (White, Black), per kind.
    pub material: [[u16; MAX_KINDS]; 2],
    /// The mover's search score, from White's point of view.
    pub eval_white: i32,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// How it ended.
    pub end: GameEnd,
    /// Plies played (after the opening).
    pub plies: u32,
    /// Final material.
    pub material: [[u16; MAX_KINDS]; 2],
    /// Every ply, when recording.
    pub moves: Vec<PlyRecord>,
}

/// The two players of a game.
pub struct Players<'a> {
    /// White's searcher and limits.
    pub white: (&'a mut Searcher, Limits),
    /// Black's searcher and limits.
    pub black: (&'a mut Searcher, Limits),
}

/// Plays a game from `start` to its end.
pub fn play_game<G: Game>(
    start: G,
    players: Players<'_>,
    adj: Adjudication,
    record: bool,
) -> GameOutcome {
    let Players { white, black } = players;
    white.0.clear();
    black.0.clear();
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    let mut plies = 0u32;
    let mut losing_streak = [0u32; 2];
    let mut quiet_streak = 0u32;
    let end = loop {
        if let Some(o) = outcome(&pos, &history) {
            break GameEnd::Rules(o);
        }
        if adj.max_plies > 0 && plies >= adj.max_plies {
            break GameEnd::MaxPlies;
        }
        let side = pos.turn();
        let (searcher, limits) = if side == Color::White {
            (&mut *white.0, white.1)
        } else {
            (&mut *black.0, black.1)
        };
        let r = searcher.search(&pos, &history, limits);
        let Some(m) = r.best else {
            unreachable!("outcome() found legal moves")
        };
        let eval_white = if side == Color::White {
            r.score
        } else {
            -r.score
        };
        if let Some((cp, n)) = adj.resign {
            let s = &mut losing_streak[side.index()];
            *s = if r.score <= -cp { *s + 1 } else { 0 };
            if *s >= n && r.score > -MATE_BOUND - 1 {
                break GameEnd::Resign(!side);
            }
        }
        if let Some((cp, n, from)) = adj.draw {
            quiet_streak = if plies >= from && r.score.abs() <= cp {
                quiet_streak + 1
            } else {
                0
            };
            if quiet_streak >= n {
                break GameEnd::DrawAdjudicated;
            }
        }
        if record {
            moves.push(PlyRecord {
                mv: pos.move_text(m),
                side,
                material: pos.material(),
                eval_white,
            });
        }
        history.push(pos.hash());
        pos.play_unchecked(m);
        plies += 1;
    };
    GameOutcome {
        end,
        plies,
        material: pos.material(),
        moves,
    }
}

//! One game between two players, the one game runner every command uses: variantlab is the
//! referee (it keeps the position, the clocks and the rules), each side is the built-in
//! searcher or an external UCI engine ([`Player`]), set up once per run by a
//! [`PlayerSpec`].

use crate::run::config::EngineConfig;
use crate::run::engine_process::{Definition, EngineError, EnginePool, PooledEngine};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use variantlab_engine::game::{outcome, Game, MAX_KINDS};
use variantlab_engine::search::{Limits, SearchConfig, Searcher, MATE_BOUND};
use variantlab_engine::{Color, Outcome};

/// Adjudication rules; both off by default, and recorded in `run.json` when on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudication {
    /// Max plies; the game is a draw after that many (0 = unlimited).
    pub max_plies: u32,
    /// Resign: a side whose own search scores at most `-cp` for `moves` of its moves in a
    /// row loses.
    #[serde(deserialize_with = "Option::deserialize")]
    pub resign: Option<(i32, u32)>,
    /// Draw: both searches within `cp` of 0 for `moves` plies in a row, from ply `from`.
    #[serde(deserialize_with = "Option::deserialize")]
    pub draw: Option<(i32, u32, u32)>,
}

/// Why a side lost without the game being played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// An external engine's `bestmove` was no legal move (or none at all).
    IllegalMove,
    /// An external engine's process ended, a pipe broke, or it could not be (re)started.
    EngineCrash,
    /// No move before the clock ran out (or, for an external engine without a clock, before
    /// its time limit plus a margin).
    TimeForfeit,
    /// An external engine wrote past the bounds of the protocol: a line over 64 KiB, or
    /// more than 16 MiB for one answer.
    EngineProtocol,
}

impl Forfeit {
    /// The termination column: `illegal_move`, `engine_crash`, `time_forfeit` or
    /// `engine_protocol`.
    pub fn name(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "illegal_move",
            Forfeit::EngineCrash => "engine_crash",
            Forfeit::TimeForfeit => "time_forfeit",
            Forfeit::EngineProtocol => "engine_protocol",
        }
    }
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
    /// The other side forfeited: the winner and why.
    Forfeit(Color, Forfeit),
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
            GameEnd::Rules(Outcome::Decisive { winner, .. })
            | GameEnd::Resign(winner)
            | GameEnd::Forfeit(winner, _) => Some(winner),
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
            GameEnd::Forfeit(_, f) => f.name(),
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

/// A chess clock: `base` for the game, `inc` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Time for the game, milliseconds.
    pub base_ms: u64,
    /// Increment per move, milliseconds.
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parses `BASE+INC` in seconds (`2+0.02`, `60+1`), or `BASE` alone (no increment).
    ///
    /// # Errors
    /// Not two non-negative numbers, or no time at all.
    pub fn parse(text: &str) -> Result<TimeControl> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |t: &str| -> Result<u64> {
            let secs: f64 = t
                .trim()
                .parse()
                .with_context(|| format!("--tc {text:?}: {t:?} is not a number of seconds"))?;
            if !(secs.is_finite() && (0.0..=86_400.0 * 365.0).contains(&secs)) {
                bail!("--tc {text:?}: {t:?} is not a sensible number of seconds");
            }
            Ok((secs * 1000.0).round() as u64)
        };
        let tc = TimeControl {
            base_ms: ms(base)?,
            inc_ms: ms(inc)?,
        };
        if tc.base_ms == 0 {
            bail!("--tc {text:?}: expected BASE+INC in seconds with BASE above 0, e.g. 2+0.02");
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base_ms as f64 / 1000.0,
            self.inc_ms as f64 / 1000.0
        )
    }
}

/// A side is flagged when a move takes longer than its clock's remaining time plus this
/// (the allowance for process and scheduling latency).
pub const CLOCK_MARGIN: Duration = Duration::from_millis(100);
/// An external engine with a fixed `movetime` must answer within it plus this.
pub const MOVETIME_MARGIN: Duration = Duration::from_millis(1000);
/// An external engine with a node or depth limit must answer within this (plus 10 µs per
/// node of a node limit).
pub const FIXED_LIMIT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an engine may take to answer `go nodes N`: [`FIXED_LIMIT_TIMEOUT`] plus 10 µs a
/// node, so a large node count on a slow engine is not taken for a hang.
pub fn node_limit_timeout(nodes: u64) -> Duration {
    FIXED_LIMIT_TIMEOUT + Duration::from_micros(10 * nodes)
}

/// One side of a game: the built-in searcher or an external engine, with its limits per
/// move and its clock.
pub struct Player {
    kind: PlayerKind,
    limits: Limits,
    clock: Option<TimeControl>,
}

enum PlayerKind {
    Search(Box<Searcher>),
    Engine(PooledEngine),
}

/// What a player is told about the game besides the position.
struct MoveContext<'a> {
    /// The text of the game's start position.
    start: &'a str,
    /// The moves since, in the variant's notation.
    moves: &'a [String],
    /// Remaining time of White and Black (`None`: no clock).
    remaining: [Option<Duration>; 2],
    /// Increments of White and Black.
    inc: [Duration; 2],
}

impl Player {
    /// The built-in searcher with `limits` per move.
    pub fn searcher(searcher: Searcher, limits: Limits) -> Player {
        Player {
            kind: PlayerKind::Search(Box::new(searcher)),
            limits,
            clock: None,
        }
    }

    /// The same player on a clock.
    pub fn with_clock(mut self, clock: Option<TimeControl>) -> Player {
        self.clock = clock;
        self
    }

    /// Whether this is an external engine.
    pub fn is_external(&self) -> bool {
        matches!(self.kind, PlayerKind::Engine(_))
    }

    /// Gets ready for a new game: clears the searcher, or (re)starts the engine and sends
    /// `ucinewgame`.
    fn new_game(&mut self) -> Result<(), Forfeit> {
        match &mut self.kind {
            PlayerKind::Search(s) => {
                s.clear();
                Ok(())
            }
            PlayerKind::Engine(e) => match e.new_game() {
                Ok(_) => Ok(()),
                Err(err) => {
                    let forfeit = match err {
                        EngineError::Protocol(_) => Forfeit::EngineProtocol,
                        _ => Forfeit::EngineCrash,
                    };
                    e.pool()
                        .note(&format!("{} at the start of a game: {err}", forfeit.name()));
                    Err(forfeit)
                }
            },
        }
    }

    /// The move to play in `pos` and its score from the mover's point of view.
    fn think<G: Game>(
        &mut self,
        pos: &G,
        history: &[u64],
        ctx: &MoveContext<'_>,
    ) -> Result<(variantlab_engine::moves::Move, i32), Forfeit> {
        let side = pos.turn().index();
        match &mut self.kind {
            PlayerKind::Search(searcher) => {
                let mut limits = self.limits;
                if let Some(left) = ctx.remaining[side] {
                    // A share of what is left, never more than a third of it.
                    let budget = (left / 30 + ctx.inc[side])
                        .min(left / 3)
                        .max(Duration::from_millis(1));
                    limits = limits.on_clock(budget);
                }
                let r = searcher.search(pos, history, limits);
                let m = r.best.expect("outcome() found legal moves");
                Ok((m, r.score))
            }
            PlayerKind::Engine(slot) => {
                let mut position = format!("position fen {}", ctx.start);
                if !ctx.moves.is_empty() {
                    position += " moves ";
                    position += &ctx.moves.join(" ");
                }
                let mut go = String::from("go");
                let mut timeout = None::<Duration>;
                if let Some(n) = self.limits.nodes {
                    go += &format!(" nodes {n}");
                    timeout = Some(node_limit_timeout(n));
                }
                if let Some(d) = self.limits.depth {
                    go += &format!(" depth {d}");
                    timeout = timeout.or(Some(FIXED_LIMIT_TIMEOUT));
                }
                if let Some(t) = self.limits.movetime {
                    go += &format!(" movetime {}", t.as_millis());
                    timeout = Some(t + MOVETIME_MARGIN);
                }
                if let Some(left) = ctx.remaining[side] {
                    for (i, c) in ["w", "b"].iter().enumerate() {
                        if let Some(r) = ctx.remaining[i] {
                            go += &format!(" {c}time {}", r.as_millis());
                        }
                    }
                    for (i, c) in ["w", "b"].iter().enumerate() {
                        if ctx.remaining[i].is_some() {
                            go += &format!(" {c}inc {}", ctx.inc[i].as_millis());
                        }
                    }
                    let flag = left + CLOCK_MARGIN;
                    timeout = Some(timeout.map_or(flag, |t| t.min(flag)));
                }
                let timeout = timeout.unwrap_or(FIXED_LIMIT_TIMEOUT);
                let Some(engine) = slot.engine() else {
                    return Err(Forfeit::EngineCrash);
                };
                let reply = engine.go(&position, &go, timeout);
                let note = |slot: &PooledEngine, what: &str| {
                    slot.pool()
                        .note(&format!("{what}; after `{position}` and `{go}`"));
                };
                match reply {
                    Ok(reply) => match pos.parse_move(&reply.bestmove) {
                        Some(m) => Ok((m, reply.score.unwrap_or(0))),
                        None => {
                            note(
                                slot,
                                &format!(
                                    "illegal_move: bestmove {:?} is not a legal move",
                                    reply.bestmove
                                ),
                            );
                            Err(Forfeit::IllegalMove)
                        }
                    },
                    Err(e @ EngineError::Crashed(_)) => {
                        note(slot, &format!("engine_crash: {e}"));
                        Err(Forfeit::EngineCrash)
                    }
                    Err(e @ EngineError::Timeout(_)) => {
                        note(
                            slot,
                            &format!("time_forfeit: {e} (waited {} ms)", timeout.as_millis()),
                        );
                        Err(Forfeit::TimeForfeit)
                    }
                    Err(e @ EngineError::Protocol(_)) => {
                        note(slot, &format!("engine_protocol: {e}"));
                        Err(Forfeit::EngineProtocol)
                    }
                }
            }
        }
    }
}

/// One side's settings for a run, from which each game's [`Player`] is made: the searcher's
/// configuration, or a pool of started external engines (one per worker thread at most,
/// reused from game to game, restarted after a crash). Written once for every command that
/// plays games.
pub struct PlayerSpec {
    config: EngineConfig,
    /// The built-in searcher's configuration (`None` for an external engine); each game's
    /// player gets its own seed.
    search: Option<SearchConfig>,
    limits: Limits,
    clock: Option<TimeControl>,
    pool: Option<Arc<EnginePool>>,
}

impl PlayerSpec {
    /// The spec of `config` for the variant `G`, with the run's `default`
    /// limits (a configuration's own `nodes`/`depth` win) and clock. An external engine is
    /// started now (so a missing program is an error before any game), its standard error
    /// appended to `RUN/engines/<name>.stderr.log` (kept in memory only without a run folder),
    /// and a variant file it needs in its own format written to `RUN/variant.ini`
    /// ([`Definition`]).
    ///
    /// # Errors
    /// A piece value naming no kind of the variant, an engine that cannot be started or
    /// cannot play `variant`, an unwritable definition.
    pub fn new<G: Game>(
        config: &EngineConfig,
        default: Limits,
        clock: Option<TimeControl>,
        run_dir: Option<&Path>,
    ) -> Result<PlayerSpec> {
        let variant = G::start().variant_name();
        let definition = match (config.exported_definition(variant), run_dir) {
            (None, _) => Definition::None,
            (Some(Err(why)), _) => Definition::Unavailable(why),
            (Some(Ok(_)), None) => Definition::Unavailable(format!(
                "this command has no run folder to write {variant}'s definition in"
            )),
            (Some(Ok(text)), Some(dir)) => {
                let path = dir.join(crate::run::folder::VARIANT_DEFINITION);
                crate::output::replace_file(&path, text.as_bytes())?;
                let path = std::path::absolute(&path)
                    .with_context(|| format!("the path of {}", path.display()))?;
                Definition::Exported(Some(path))
            }
        };
        let logs = run_dir.map(|d| d.join(crate::run::folder::LOG_DIR));
        let pool = match &config.engine {
            Some(command) => Some(
                EnginePool::new(
                    command,
                    variant,
                    &config.options,
                    definition,
                    logs.map(|d| d.join(format!("{}.stderr.log", config.file_name()))),
                )
                .with_context(|| format!("configuration {:?}", config.name))?,
            ),
            None => None,
        };
        let search = match &pool {
            Some(_) => None,
            None => Some(config.search_config::<G>(0)?),
        };
        Ok(PlayerSpec {
            config: config.clone(),
            search,
            limits: config.limits(default),
            clock,
            pool,
        })
    }

    /// The player of one game; `seed` seeds the built-in searcher's root randomisation.
    pub fn player(&self, seed: u64) -> Player {
        let kind = match &self.pool {
            Some(pool) => PlayerKind::Engine(PooledEngine::new(Arc::clone(pool))),
            None => PlayerKind::Search(Box::new(Searcher::new(SearchConfig {
                seed,
                ..self.search.clone().unwrap_or_default()
            }))),
        };
        Player {
            kind,
            limits: self.limits,
            clock: self.clock,
        }
    }

    /// The configuration's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }
}

/// The two players of a game.
pub struct Players<'a> {
    /// White.
    pub white: &'a mut Player,
    /// Black.
    pub black: &'a mut Player,
}

/// Plays a game from `start` to its end.
pub fn play_game<G: Game>(
    start: G,
    players: Players<'_>,
    adj: Adjudication,
    record: bool,
) -> GameOutcome {
    let Players { white, black } = players;
    let external = white.is_external() || black.is_external();
    let start_text = if external {
        start.to_text()
    } else {
        String::new()
    };
    let mut move_texts: Vec<String> = Vec::new();
    let clocks = [white.clock, black.clock];
    let mut remaining = clocks.map(|c| c.map(|c| Duration::from_millis(c.base_ms)));
    let inc = clocks.map(|c| Duration::from_millis(c.map_or(0, |c| c.inc_ms)));
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    let mut plies = 0u32;
    let mut losing_streak = [0u32; 2];
    let mut quiet_streak = 0u32;
    let ready = match (white.new_game(), black.new_game()) {
        (Err(f), _) => Err(GameEnd::Forfeit(Color::Black, f)),
        (_, Err(f)) => Err(GameEnd::Forfeit(Color::White, f)),
        _ => Ok(()),
    };
    let end = if let Err(end) = ready {
        end
    } else {
        loop {
            if let Some(o) = outcome(&pos, &history) {
                break GameEnd::Rules(o);
            }
            if adj.max_plies > 0 && plies >= adj.max_plies {
                break GameEnd::MaxPlies;
            }
            let side = pos.turn();
            let player = if side == Color::White {
                &mut *white
            } else {
                &mut *black
            };
            let ctx = MoveContext {
                start: &start_text,
                moves: &move_texts,
                remaining,
                inc,
            };
            let t = Instant::now();
            let thought = player.think(&pos, &history, &ctx);
            let took = t.elapsed();
            let (m, score) = match thought {
                Ok(x) => x,
                Err(f) => break GameEnd::Forfeit(!side, f),
            };
            if let Some(left) = &mut remaining[side.index()] {
                if took > *left + CLOCK_MARGIN {
                    break GameEnd::Forfeit(!side, Forfeit::TimeForfeit);
                }
                *left = left.saturating_sub(took) + inc[side.index()];
            }
            let eval_white = if side == Color::White { score } else { -score };
            if let Some((cp, n)) = adj.resign {
                let s = &mut losing_streak[side.index()];
                *s = if score <= -cp { *s + 1 } else { 0 };
                if *s >= n && score > -MATE_BOUND - 1 {
                    break GameEnd::Resign(!side);
                }
            }
            if let Some((cp, n, from)) = adj.draw {
                quiet_streak = if plies >= from && score.abs() <= cp {
                    quiet_streak + 1
                } else {
                    0
                };
                if quiet_streak >= n {
                    break GameEnd::DrawAdjudicated;
                }
            }
            if record || external {
                let text = pos.move_text(m);
                if record {
                    moves.push(PlyRecord {
                        mv: text.clone(),
                        side,
                        material: pos.material(),
                        eval_white,
                    });
                }
                if external {
                    move_texts.push(text);
                }
            }
            history.push(pos.hash());
            pos.play_unchecked(m);
            plies += 1;
        }
    };
    GameOutcome {
        end,
        plies,
        material: pos.material(),
        moves,
    }
}

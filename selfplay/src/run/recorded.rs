//! Recorded games read back from a run folder (`run.json`, `games.csv`, `moves.csv`) and
//! replayed on the engine: the one reader that `tune` (positions to fit on) and `report` (the
//! game viewer) share, so both agree on how an opening and a move list become positions.
//!
//! Openings are written two ways: `random-plies:N` runs record the opening as moves from the
//! start position, every other run records a position text.

use crate::run::format::RunConfig;
use crate::stats::GameResult;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use variantlab_engine::game::Game;
use variantlab_engine::Move;

/// One row of `games.csv`, as far as replaying and classifying it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Game id.
    pub id: u64,
    /// The opening: moves from the start (`random-plies:` runs) or a position text.
    pub opening: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended (`checkmate`, `repetition`, `max_plies`, ...).
    pub termination: String,
    /// Plies played after the opening.
    pub plies: u32,
}

impl GameRow {
    /// White's points: 1, ½ or 0 (`read_games` accepts no other result).
    pub fn white_points(&self) -> f32 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }
}

/// One recorded ply of `moves.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The move in the variant's notation.
    pub text: String,
    /// The mover's evaluation, in centipawns from White's side (as recorded, unclamped).
    pub eval_white_cp: f32,
}

/// The settings of a run folder ([`crate::run::format::saved_config`]: a file-defined
/// variant's games replay with the definition stored in the run).
///
/// # Errors
/// A missing or malformed `run.json`.
pub fn read_run(dir: &Path) -> Result<RunConfig> {
    crate::run::format::saved_config(dir)?
        .with_context(|| format!("{}: no run.json (not a run folder?)", dir.display()))
}

/// The column numbers of `names` in a CSV header, or an error naming the missing one.
fn columns(headers: &csv::StringRecord, path: &Path, names: &[&str]) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|name| {
            headers
                .iter()
                .position(|h| h == *name)
                .with_context(|| format!("{}: no column {name:?}", path.display()))
        })
        .collect()
}

/// Every game of `games.csv`, in file order.
///
/// # Errors
/// A missing file or column, a short row (a truncated file), a malformed number or result,
/// each named with its file and line.
pub fn read_games(dir: &Path) -> Result<Vec<GameRow>> {
    let path = dir.join("games.csv");
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .clone();
    let c = columns(
        &headers,
        &path,
        &["game_id", "opening", "result", "termination", "plies"],
    )?;
    let mut games = Vec::new();
    for (line, row) in reader.records().enumerate() {
        let at = || format!("{}, line {}", path.display(), line + 2);
        let row = row.with_context(at)?;
        let field = |i: usize| -> Result<&str> {
            row.get(c[i])
                .with_context(|| format!("{}: too few fields (a truncated file?)", at()))
        };
        let id: u64 = field(0)?
            .parse()
            .with_context(|| format!("{}: game_id", at()))?;
        let result = field(2)?;
        if !["1-0", "0-1", "1/2-1/2"].contains(&result) {
            bail!("{}: result {result:?}", at());
        }
        let plies: u32 = field(4)?
            .parse()
            .with_context(|| format!("{}: plies", at()))?;
        games.push(GameRow {
            id,
            opening: field(1)?.to_string(),
            result: result.to_string(),
            termination: field(3)?.to_string(),
            plies,
        });
    }
    Ok(games)
}

/// The moves of every game in `moves.csv`, in ply order, by game id.
///
/// # Errors
/// A missing file (a run without `--record-moves`), a malformed row, or a game whose plies are
/// not 1, 2, ... without gaps (a truncated file), named with the file and line.
pub fn read_moves(dir: &Path) -> Result<HashMap<u64, Vec<Ply>>> {
    let path = dir.join("moves.csv");
    let mut reader = csv::Reader::from_path(&path).with_context(|| {
        format!(
            "reading {} (record the games with --record-moves)",
            path.display()
        )
    })?;
    let headers = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .clone();
    let c = columns(
        &headers,
        &path,
        &["game_id", "ply", "move", "eval_white_cp"],
    )?;
    let mut moves: HashMap<u64, Vec<(u32, Ply)>> = HashMap::new();
    for (line, row) in reader.records().enumerate() {
        let at = || format!("{}, line {}", path.display(), line + 2);
        let row = row.with_context(at)?;
        let field = |i: usize| -> Result<&str> {
            row.get(c[i])
                .with_context(|| format!("{}: too few fields (a truncated file?)", at()))
        };
        let id: u64 = field(0)?
            .parse()
            .with_context(|| format!("{}: game_id", at()))?;
        let ply: u32 = field(1)?
            .parse()
            .with_context(|| format!("{}: ply", at()))?;
        let eval_white_cp: f32 = field(3)?
            .parse()
            .with_context(|| format!("{}: eval_white_cp", at()))?;
        moves.entry(id).or_default().push((
            ply,
            Ply {
                text: field(2)?.to_string(),
                eval_white_cp,
            },
        ));
    }
    let mut out = HashMap::new();
    for (id, mut list) in moves {
        list.sort_by_key(|m| m.0);
        if list.iter().enumerate().any(|(i, m)| m.0 != i as u32 + 1) {
            bail!(
                "{}: game {id} has missing or repeated plies (truncated file?)",
                path.display()
            );
        }
        out.insert(id, list.into_iter().map(|m| m.1).collect());
    }
    Ok(out)
}

/// A game whose rows in `moves.csv` do not agree with its `plies` in `games.csv`: a cut
/// `moves.csv`, a missing one, or a merge or copy stopped half way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortGame {
    /// Game id.
    pub id: u64,
    /// Plies by `games.csv`.
    pub plies: u64,
    /// Its line in `games.csv`.
    pub games_line: usize,
    /// Rows in `moves.csv`.
    pub rows: u64,
    /// The line of its last row in `moves.csv`, if it has any.
    pub last_line: Option<u64>,
}

/// The games of `games` (id and plies, in `games.csv` order: line 2 first) whose move rows
/// in `moves` (already read: id and the row's line) are not exactly `plies` many. Rows of
/// games not in `games` are not counted: an interrupted run writes a game's moves before
/// its `games.csv` row, and a resume replays such a game.
pub fn short_games(
    games: impl IntoIterator<Item = (u64, u64)>,
    moves: impl IntoIterator<Item = (u64, u64)>,
) -> Vec<ShortGame> {
    let mut rows: HashMap<u64, (u64, u64)> = HashMap::new();
    for (id, line) in moves {
        let e = rows.entry(id).or_default();
        e.0 += 1;
        e.1 = e.1.max(line);
    }
    games
        .into_iter()
        .enumerate()
        .filter_map(|(i, (id, plies))| {
            let (n, last) = rows.get(&id).copied().unwrap_or((0, 0));
            (n != plies).then_some(ShortGame {
                id,
                plies,
                games_line: i + 2,
                rows: n,
                last_line: (n > 0).then_some(last),
            })
        })
        .collect()
}

/// The refusal for a [`ShortGame`] of the run in `dir`, naming both files, the game and the
/// lines.
pub fn short_game_error(dir: &Path, g: &ShortGame) -> anyhow::Error {
    let moves = dir.join("moves.csv");
    anyhow::anyhow!(
        "{}: game {} has {} move rows{}, but {}, line {}, says it has {} plies (a cut or missing moves.csv?); `variantlab play --resume {}` replays such games",
        moves.display(),
        g.id,
        g.rows,
        g.last_line
            .map_or(String::new(), |l| format!(" (its last at line {l})")),
        dir.join("games.csv").display(),
        g.games_line,
        g.plies,
        dir.display()
    )
}

/// Checks that the `moves.csv` of the run in `dir` holds every game of `games` (id and
/// plies, in `games.csv` order) whole; nothing to check in a run without `--record-moves`.
///
/// # Errors
/// A missing `moves.csv`, an unreadable row, or a game with more or fewer move rows than
/// plies ([`short_game_error`]).
pub fn check_moves(
    dir: &Path,
    run: &RunConfig,
    games: impl IntoIterator<Item = (u64, u64)>,
) -> Result<()> {
    if !run.record_moves {
        return Ok(());
    }
    let path = dir.join("moves.csv");
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(&path)
        .with_context(|| {
            format!(
                "reading {} (the run records moves, but its moves.csv is missing)",
                path.display()
            )
        })?;
    let width = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    let mut ids = Vec::new();
    for row in reader.records() {
        let row = row.with_context(|| format!("reading {}", path.display()))?;
        let line = row.position().map_or(0, |p| p.line());
        let id = row
            .get(0)
            .and_then(|f| f.parse::<u64>().ok())
            .with_context(|| format!("{}, line {line}: game_id", path.display()))?;
        if row.len() != width {
            bail!(
                "{}, line {line}: game {id}: {} of {width} fields (a cut row)",
                path.display(),
                row.len()
            );
        }
        ids.push((id, line));
    }
    match short_games(games, ids).first() {
        Some(g) => Err(short_game_error(dir, g)),
        None => Ok(()),
    }
}

/// The position a game of the run started from, after its opening.
///
/// # Errors
/// An opening move that is not legal, or a position text that does not parse; the message
/// names the folder and game.
pub fn opening_position<G: Game>(run: &RunConfig, dir: &Path, game: &GameRow) -> Result<G> {
    let id = game.id;
    if crate::run::openings::plays_from_start(&run.openings) {
        let mut p = G::start();
        for m in game.opening.split_whitespace() {
            p.play_text(m)
                .with_context(|| format!("{}: game {id}: opening move {m}", dir.display()))?;
        }
        Ok(p)
    } else {
        G::from_text(&game.opening)
            .map_err(|e| anyhow::anyhow!("{}: game {id}: opening: {e}", dir.display()))
    }
}

/// Replays `moves` from the opening of `game`, calling `visit` with each position and the
/// move played from it (ply 1 first); returns the final position.
///
/// # Errors
/// A bad opening ([`opening_position`]) or a recorded move that is not legal where it was
/// played, named with the folder, game and ply.
pub fn replay<G: Game>(
    run: &RunConfig,
    dir: &Path,
    game: &GameRow,
    moves: &[Ply],
    mut visit: impl FnMut(usize, &G, Move) -> Result<()>,
) -> Result<G> {
    let mut pos: G = opening_position(run, dir, game)?;
    for (ply, p) in moves.iter().enumerate() {
        let Some(m) = pos.parse_move(&p.text) else {
            bail!(
                "{}: game {}, ply {}: {} is not a legal move in {}",
                dir.display(),
                game.id,
                ply + 1,
                p.text,
                pos.to_text()
            );
        };
        visit(ply, &pos, m)?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}

/// One game as the statistics see it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game id.
    pub id: u64,
    /// Result from White's point of view.
    pub result: GameResult,
    /// Termination reason.
    pub termination: String,
    /// Plies.
    pub plies: u32,
    /// Pieces left at the end, White's and Black's, of each kind of
    /// [`RunData::material_kinds`] (empty when `games.csv` has no material columns).
    pub material: Vec<[u32; 2]>,
}

/// A tournament folder, read back.
#[derive(Clone, Debug)]
pub struct RunData {
    /// Where it was read from.
    pub dir: PathBuf,
    /// Its configuration.
    pub config: RunConfig,
    /// Its games.
    pub games: Vec<GameRecord>,
    /// The kinds whose counts `games.csv` records (its `white_K`/`black_K` columns), as
    /// written there ([`piece_key`](crate::run::config::piece_key)).
    pub material_kinds: Vec<String>,
}

/// Reads `run.json` and `games.csv` of a folder.
///
/// # Errors
/// A missing or malformed file, named with the line and column at fault.
pub fn load(dir: &Path) -> Result<RunData> {
    let config = crate::run::recorded::read_run(dir)?;
    let gpath = dir.join("games.csv");
    let mut reader =
        csv::Reader::from_path(&gpath).with_context(|| format!("reading {}", gpath.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("reading {}", gpath.display()))?
        .clone();
    let col = |name: &str| -> Result<usize> {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column {name:?}", gpath.display()))
    };
    let (cid, cres, cterm, cplies) = (
        col("game_id")?,
        col("result")?,
        col("termination")?,
        col("plies")?,
    );
    // The material columns: `white_K` with a `black_K` beside it.
    let material_columns: Vec<(String, usize, usize)> = headers
        .iter()
        .enumerate()
        .filter_map(|(w, h)| {
            let kind = h.strip_prefix("white_")?;
            let b = headers.iter().position(|x| x == format!("black_{kind}"))?;
            Some((kind.to_string(), w, b))
        })
        .collect();
    let mut games = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("{}: line {line}", gpath.display()))?;
        if rec.len() != headers.len() {
            bail!(
                "{}: line {line} has {} fields, expected {} (a truncated file?)",
                gpath.display(),
                rec.len(),
                headers.len()
            );
        }
        let field = |c: usize| rec.get(c).unwrap_or("");
        let result = match field(cres) {
            "1-0" => GameResult::WhiteWin,
            "0-1" => GameResult::BlackWin,
            "1/2-1/2" => GameResult::Draw,
            other => bail!(
                "{}: line {line}: result {other:?} is not 1-0, 0-1 or 1/2-1/2",
                gpath.display()
            ),
        };
        let num = |c: usize, what: &str| -> Result<u64> {
            field(c).parse().with_context(|| {
                format!(
                    "{}: line {line}: {what} {:?} is not a number",
                    gpath.display(),
                    field(c)
                )
            })
        };
        let count = |c: usize| -> Result<u32> {
            let n = num(c, &headers[c])?;
            u32::try_from(n).with_context(|| {
                format!(
                    "{}: line {line}: {} {n} is too large",
                    gpath.display(),
                    &headers[c]
                )
            })
        };
        let material = material_columns
            .iter()
            .map(|(_, w, b)| Ok([count(*w)?, count(*b)?]))
            .collect::<Result<Vec<[u32; 2]>>>()?;
        games.push(GameRecord {
            id: num(cid, "game_id")?,
            result,
            termination: field(cterm).to_string(),
            plies: num(cplies, "plies")? as u32,
            material,
        });
    }
    check_moves(
        dir,
        &config,
        games.iter().map(|g| (g.id, u64::from(g.plies))),
    )?;
    Ok(RunData {
        dir: dir.to_path_buf(),
        config,
        games,
        material_kinds: material_columns.into_iter().map(|(k, _, _)| k).collect(),
    })
}

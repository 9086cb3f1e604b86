//! Parallel self-play tournaments: a fixed game list (pairs from one opening with colours
//! swapped), played on a rayon pool, each finished game appended to `games.csv` as one whole
//! flushed row, resumable and shardable.
//!
//! Reproducibility: a game's seed comes from (master seed, game id) and its searchers are
//! created for that game alone, so every game is the same whatever the thread count or the
//! order games finish in. When the run completes, the CSVs are rewritten sorted by game id,
//! so they are identical (timing columns aside) for any thread count.

use crate::output::{out, write_json};
use crate::run::config::EngineConfig;
use crate::run::folder_lock::FolderLock;
use crate::run::format::{
    drop_partial_line, engine_names, games_header, has_content, now, open_append, read_csv,
    rewrite, saved_config, RunConfig, Summary, MOVES_HEADER,
};
use crate::run::openings::Openings;
use crate::run::pgn;
use crate::run::play::GameOutcome;
use crate::run::schedule::{self, Flow, Match, MatchSettings, Order, Played, Slot};
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::{with_variant, Color};

/// Options of `variantlab play` that are not part of the run's identity.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
}

/// Starts a new run in `dir` (which must not already hold one).
///
/// # Errors
/// An existing run in `dir`, an unwritable folder, a bad configuration.
pub fn start(config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    start_or_replace(config, dir, opts, false)
}

/// [`start`], where `force` replaces a run already in `dir` (the toolkit's files only,
/// [`crate::run::folder::clear`]) instead of refusing it.
///
/// # Errors
/// Those of [`start`]; with `force`, a file in `dir` that variantlab did not write.
pub fn start_or_replace(
    config: RunConfig,
    dir: &Path,
    opts: &RunOptions,
    force: bool,
) -> Result<Summary> {
    let config = config.with_openings_checksum()?;
    config.settings().validate()?;
    crate::run::config::check_memory(opts.threads, config.games, [&config.white, &config.black])?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating output folder {}", dir.display()))?;
    let _lock = FolderLock::acquire(dir)?;
    if dir.join("run.json").exists() {
        if !force {
            bail!(
                "{} already holds a run; use --resume {} to finish it, --force to replace it, or choose another --out",
                dir.display(),
                dir.display()
            );
        }
        crate::run::folder::clear(dir)?;
    }
    if config.openings_checksum.is_some() {
        std::fs::copy(
            &config.openings,
            dir.join(crate::run::folder::OPENINGS_COPY),
        )
        .with_context(|| format!("copying {} into {}", config.openings, dir.display()))?;
    }
    write_json(&dir.join("run.json"), &config)?;
    run(config, dir, opts)
}

/// What to do with `dir` before a run of `config`: the one rule every command follows.
/// A run there with the same settings is resumed (`Ok(true)`; a finished one costs
/// nothing), an empty place is started afresh (`Ok(false)`), and a run with other settings
/// (another variant, game count, node count, seed, openings ...) is refused, or with
/// `force` removed (the toolkit's files only, [`crate::run::folder::clear`]) and started
/// afresh.
///
/// # Errors
/// A run with other settings and no `force`, an unreadable `run.json`, an undeletable folder.
pub fn resume_or_replace(dir: &Path, config: &RunConfig, force: bool) -> Result<bool> {
    match saved_config(dir)? {
        Some(saved) if saved.identity() == config.identity() => Ok(true),
        Some(_) if force => {
            let _lock = FolderLock::acquire(dir)?;
            crate::run::folder::clear(dir)?;
            Ok(false)
        }
        Some(saved) => bail!(
            "{} holds a run made with other settings ({} games of {} at {}); use --force to replace it, or choose another --out",
            dir.display(),
            saved.games,
            saved.variant.name(),
            match (saved.nodes, saved.depth, saved.movetime, saved.tc) {
                (Some(n), ..) => format!("{n} nodes"),
                (None, Some(d), ..) => format!("depth {d}"),
                (None, None, Some(ms), _) => format!("{ms} ms per move"),
                (None, None, None, Some(tc)) => format!("clock {tc}"),
                _ => "default limits".to_string(),
            },
        ),
        None => Ok(false),
    }
}

/// Finishes the run in `dir`: the games not yet in `games.csv` are played.
///
/// # Errors
/// No run in `dir`, or a damaged CSV (named, with the line).
pub fn resume(dir: &Path, opts: &RunOptions) -> Result<Summary> {
    resume_named(dir, opts, &[None, None])
}

/// The engine configurations a command line named for a resume: `--white` and `--black`
/// (`--test` and `--base` for an SPRT match), each if given.
pub type Named = [Option<EngineConfig>; 2];

/// Refuses a resume that would start a program the command line did not name: a run folder
/// is data, and its settings file could have been edited. Each external engine of the saved
/// settings must be given again (`flags` name the options), and anything given must be what
/// the run was started with.
///
/// # Errors
/// An external engine not named again, or a configuration that differs from the saved one.
pub fn confirm_engines(
    settings: &Path,
    saved: [&EngineConfig; 2],
    named: &Named,
    flags: [&str; 2],
) -> Result<()> {
    for ((saved, named), flag) in saved.into_iter().zip(named).zip(flags) {
        match named {
            Some(n) if n != saved => bail!(
                "{flag} {:?} differs from the engine {} was started with ({}); resume with the same {flag}",
                n.name,
                settings.display(),
                describe(saved)
            ),
            None if saved.is_external() => bail!(
                "{} plays the external engine {}: a resume starts only programs named on the command line, so give {flag} again (the same as when the run started)",
                settings.display(),
                describe(saved)
            ),
            _ => {}
        }
    }
    Ok(())
}

/// A configuration as a resume's refusal names it.
fn describe(c: &EngineConfig) -> String {
    match &c.engine {
        Some(command) => format!("{:?}, command {command:?}", c.name),
        None => format!("{:?}, built in", c.name),
    }
}

/// [`resume`], with the engines the command line named ([`confirm_engines`]).
///
/// # Errors
/// Those of [`resume`] and [`confirm_engines`].
pub fn resume_named(dir: &Path, opts: &RunOptions, named: &Named) -> Result<Summary> {
    let (_lock, config) = saved_run(dir, named)?;
    run(config, dir, opts)
}

/// The run in `dir`, locked, with its external engines confirmed against the ones the
/// command line named: what both [`resume_named`] and [`extend`] start from.
fn saved_run(dir: &Path, named: &Named) -> Result<(FolderLock, RunConfig)> {
    if !dir.join("run.json").exists() {
        bail!("--resume {}: no run.json there", dir.display());
    }
    let lock = FolderLock::acquire(dir)?;
    let config = saved_config(dir)?
        .with_context(|| format!("--resume {}: no run.json there", dir.display()))?;
    confirm_engines(
        &dir.join("run.json"),
        [&config.white, &config.black],
        named,
        ["--white", "--black"],
    )?;
    Ok((lock, config))
}

/// Extends the run in `dir` to `games` games in all (the game list is fixed by the seed, so
/// the first games stay as they are) and plays the new ones.
///
/// # Errors
/// No run in `dir`, fewer games than it already has, or the errors of [`resume`].
pub fn extend(dir: &Path, games: u64, opts: &RunOptions, named: &Named) -> Result<Summary> {
    let (_lock, mut config) = saved_run(dir, named)?;
    if games < config.games {
        bail!(
            "--games {games}: the run in {} already has {} games; a run can grow, not shrink",
            dir.display(),
            config.games
        );
    }
    config.games = games;
    config.finished = None;
    write_json(&dir.join("run.json"), &config)?;
    run(config, dir, opts)
}

/// What `variantlab play` does with its folder.
#[derive(Clone, Debug)]
pub enum PlayJob {
    /// Start this new run there; with `true` (`--force`), replacing a run there.
    Start(Box<RunConfig>, bool),
    /// Finish the run there, with the engines the command line named (`--white`,
    /// `--black`; see [`confirm_engines`]).
    Resume(Named),
    /// Extend the run there to this many games, then finish it.
    Extend(u64, Named),
}

/// `variantlab play`: does `job` in `dir` and prints the run's summary.
///
/// # Errors
/// Those of [`start`], [`resume`] and [`extend`].
pub fn play_command(job: PlayJob, dir: &Path, opts: &RunOptions) -> Result<()> {
    let summary = match job {
        PlayJob::Start(config, force) => start_or_replace(*config, dir, opts, force)?,
        PlayJob::Resume(named) => resume_named(dir, opts, &named)?,
        PlayJob::Extend(games, named) => extend(dir, games, opts, &named)?,
    };
    out!("{}", summary.line());
    out!("wrote {}", dir.join("games.csv").display());
    Ok(())
}

fn run(mut config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    if !opts.quiet {
        eprintln!(
            "{}: safe to interrupt; `variantlab play --resume {}` finishes the run",
            dir.display(),
            dir.display()
        );
    }
    config.threads = opts.threads;
    crate::run::config::check_memory(opts.threads, config.games, [&config.white, &config.black])?;
    with_variant!(config.variant, G => run_variant::<G>(config, dir, opts))
}

fn run_variant<G: Game>(mut config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    let settings = MatchSettings {
        openings: config.openings_in(dir)?,
        ..config.settings()
    };
    // Checked before the run.json was written, so a failure here comes from that file.
    let openings = Openings::parse::<G>(&settings.openings)
        .with_context(|| format!("the openings of {}", dir.join("run.json").display()))?;
    let kinds = G::start().material_kinds();
    let players = settings.players::<G>(Some(dir))?;
    let header = games_header(&kinds);
    let games_path = dir.join("games.csv");
    let moves_path = dir.join("moves.csv");
    let pgn_path = dir.join(crate::run::folder::PGN_FILE);
    let write_pgn = config.record_moves && config.pgn;

    if drop_partial_line(&games_path)? {
        eprintln!("note: {} ended in an unfinished row (a killed run); it was dropped and its game is replayed", games_path.display());
    }
    let mut done_rows = if has_content(&games_path)? {
        read_csv(&games_path, &header)?
    } else {
        Vec::new()
    };
    let id_of = |r: &Vec<String>| r[0].parse::<u64>().unwrap_or(u64::MAX);
    if config.record_moves {
        // Moves of games without a finished row are replayed: drop them.
        drop_partial_line(&moves_path)?;
        let mh: Vec<String> = MOVES_HEADER.iter().map(|s| s.to_string()).collect();
        let rows = if has_content(&moves_path)? {
            read_csv(&moves_path, &mh)?
        } else {
            Vec::new()
        };
        // A game whose move rows are not all there (a cut or deleted moves.csv) is played
        // again, its row in games.csv dropped first.
        let short: BTreeSet<u64> = crate::run::recorded::short_games(
            done_rows
                .iter()
                .map(|r| (id_of(r), r[9].parse().unwrap_or(u64::MAX))),
            rows.iter()
                .enumerate()
                .map(|(i, r)| (id_of(r), i as u64 + 2)),
        )
        .iter()
        .map(|g| g.id)
        .collect();
        if !short.is_empty() {
            eprintln!(
                "note: {} lacks moves of {} finished game(s) (first: game {}); they are played again",
                moves_path.display(),
                short.len(),
                short.first().copied().unwrap_or_default()
            );
            done_rows.retain(|r| !short.contains(&id_of(r)));
            rewrite(&games_path, &header, done_rows.clone())?;
        }
        let done: BTreeSet<u64> = done_rows.iter().map(id_of).collect();
        let kept: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| done.contains(&id_of(r)))
            .cloned()
            .collect();
        if kept.len() != rows.len() || !moves_path.exists() {
            rewrite(&moves_path, &mh, kept.clone())?;
        }
        if write_pgn {
            // Rebuilt from the rows kept: a record cut by a kill, or one of a game
            // without a finished row, is gone, and none is written twice.
            pgn::rewrite(&pgn_path, &config, &done_rows, &pgn::moves_by_game(&kept))?;
        }
    }
    let done: BTreeSet<u64> = done_rows.iter().map(id_of).collect();

    let total_in_shard = (0..config.games).filter(|&id| config.in_shard(id)).count() as u64;
    let bar = schedule::progress(
        opts.quiet,
        Some(total_in_shard),
        "{bar:30} {pos}/{len} games  {msg}  {per_sec}  eta {eta}",
    );
    bar.set_position(done.len() as u64);

    let mut games_out = open_append(
        &games_path,
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
    )?;
    let mut moves_out = if config.record_moves {
        Some(open_append(&moves_path, &MOVES_HEADER)?)
    } else {
        None
    };
    let mut pgn_out = if write_pgn {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&pgn_path)
            .with_context(|| format!("opening {}", pgn_path.display()))?;
        Some(BufWriter::new(file))
    } else {
        None
    };
    let mut all_rows = done_rows;
    bar.set_message(live_message(&Summary::from_rows(&all_rows)));

    let pool = schedule::pool(opts.threads)?;
    let start = |slot: &Slot| schedule::pair_opening::<G>(&openings, config.seed, slot);
    let games = Match {
        settings: &settings,
        players: [&players[0], &players[1]],
        start: &start,
    };
    let wanted = |id: u64| config.in_shard(id) && !done.contains(&id);
    let cfg = &config;
    // Each game as it finishes: its rows written and flushed, the live figures updated.
    let mut write_game = |g: Played| -> Result<Flow> {
        let names = g.slot.colours().map(|i| players[i].name());
        let row = game_row(cfg, &g, (names[0], names[1]), kinds.len());
        let moves = moves_rows(g.slot.id, &g.outcome);
        let writing = |p: &Path| format!("writing {}", p.display());
        if let Some(w) = moves_out.as_mut() {
            for m in &moves {
                w.write_record(m).with_context(|| writing(&moves_path))?;
            }
            w.flush().with_context(|| writing(&moves_path))?;
        }
        if let Some(w) = pgn_out.as_mut() {
            let plies: pgn::GameMoves = moves
                .iter()
                .map(|m| {
                    let side = if m[3] == "black" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    (side, m[2].clone())
                })
                .collect();
            w.write_all(pgn::record(cfg, &row, &plies).as_bytes())
                .and_then(|()| w.flush())
                .with_context(|| writing(&pgn_path))?;
        }
        games_out
            .write_record(&row)
            .with_context(|| writing(&games_path))?;
        games_out.flush().with_context(|| writing(&games_path))?;
        all_rows.push(row);
        bar.set_message(live_message(&Summary::from_rows(&all_rows)));
        bar.inc(1);
        Ok(Flow::Continue)
    };
    games.run(
        &pool,
        0..config.games,
        &wanted,
        Order::Finished,
        &mut write_game,
    )?;
    bar.finish_and_clear();
    drop(games_out);
    drop(moves_out);
    drop(pgn_out);

    // Complete: rewrite sorted by game id, so output does not depend on finishing order.
    if all_rows.len() as u64 == total_in_shard {
        all_rows.sort_by_key(|r| r[0].parse::<u64>().unwrap_or(u64::MAX));
        rewrite(&games_path, &header, all_rows.clone())?;
        if config.record_moves {
            let mh: Vec<String> = MOVES_HEADER.iter().map(|s| s.to_string()).collect();
            let mut rows = read_csv(&moves_path, &mh)?;
            rows.sort_by_key(|r| {
                (
                    r[0].parse::<u64>().unwrap_or(u64::MAX),
                    r[1].parse::<u64>().unwrap_or(0),
                )
            });
            if write_pgn {
                pgn::rewrite(&pgn_path, &config, &all_rows, &pgn::moves_by_game(&rows))?;
            }
            rewrite(&moves_path, &mh, rows)?;
        }
        config.finished = Some(now());
        write_json(&dir.join("run.json"), &config)?;
    }
    drop(players);
    Ok(Summary {
        not_reproducible: !config.reproducible,
        engines: engine_names(&config),
        ..Summary::from_rows(&all_rows)
    })
}

fn live_message(s: &Summary) -> String {
    let st = &s.stats;
    format!(
        "+{} ={} -{}  White {:.3}",
        st.white_wins,
        st.draws,
        st.black_wins,
        st.white_score()
    )
}

/// The `games.csv` row of a game.
fn game_row(cfg: &RunConfig, g: &Played, (w, b): (&str, &str), nkinds: usize) -> Vec<String> {
    let out = &g.outcome;
    let mut row = vec![
        g.slot.id.to_string(),
        g.slot.pair.to_string(),
        g.slot.seed.to_string(),
        cfg.variant.name().to_string(),
        g.opening.clone(),
        w.to_string(),
        b.to_string(),
        out.end.result().to_string(),
        out.end.reason().to_string(),
        out.plies.to_string(),
    ];
    for side in [Color::White, Color::Black] {
        for k in 0..nkinds {
            row.push(out.material[side.index()][k].to_string());
        }
    }
    row.push(g.elapsed.as_millis().to_string());
    row
}

fn moves_rows(game_id: u64, out: &GameOutcome) -> Vec<Vec<String>> {
    out.moves
        .iter()
        .enumerate()
        .map(|(ply, p)| {
            let n = p.material[0]
                .iter()
                .rposition(|&c| c != 0)
                .map_or(0, |i| i + 1)
                .max(
                    p.material[1]
                        .iter()
                        .rposition(|&c| c != 0)
                        .map_or(0, |i| i + 1),
                );
            let side = |c: usize| {
                p.material[c][..n]
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            };
            vec![
                game_id.to_string(),
                (ply + 1).to_string(),
                p.mv.clone(),
                p.side.name().to_string(),
                format!("{}/{}", side(0), side(1)),
                p.eval_white.to_string(),
            ]
        })
        .collect()
}

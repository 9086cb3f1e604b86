//! `variantlab datagen`: self-play games by the built-in searcher, played by the one game
//! runner ([`crate::run::schedule::Match`]), whose quiet positions are written with the
//! search's score and the game's result to a data file ([`crate::net::data`]).
//!
//! Games are handed to the writer in id order and each game's seed comes from (seed, id),
//! so the file is the same whatever the thread count. A game's records are written and
//! flushed together; an interrupted run is resumed by dropping the last game in the file
//! (it may be cut) and playing on from it, which gives the file one uninterrupted run
//! would have. A larger `--games` extends a file the same way.

use crate::net::data::{self, DataSettings, Record, Tail};
use crate::run::config::EngineConfig;
use crate::run::openings::Openings;
use crate::run::play::{Adjudication, GameEnd};
use crate::run::schedule::{self, Flow, Match, MatchSettings, Order, Played, Slot};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use variantlab_engine::game::Game;
use variantlab_engine::search::{Limits, MATE_BOUND};
use variantlab_engine::{with_variant, Color, VariantKind};

/// What `variantlab datagen` is asked to do.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// The variant.
    pub variant: VariantKind,
    /// The engine configuration (`default` or a JSON file).
    pub engine: String,
    /// Nodes per move.
    pub nodes: u64,
    /// Games in all (of the whole run, not of the shard).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The openings spec.
    pub openings: String,
    /// Ply cap.
    pub max_plies: u32,
    /// Plies after the opening whose positions are left out.
    pub skip_plies: u32,
    /// The data file, or a folder for `<variant>.vldata` (`<variant>.shard-I-of-N.vldata`).
    pub out: PathBuf,
    /// `(I, N)`: play the I-th of N slices.
    pub shard: Option<(u64, u64)>,
    /// Worker threads.
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
}

/// The file name extension of data files.
pub const EXTENSION: &str = "vldata";

/// The file `out` names: itself, or inside it when it is a folder (or ends in `/`).
pub fn data_path(out: &Path, variant: &str, shard: Option<(u64, u64)>) -> PathBuf {
    let folder = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    if !folder {
        return out.to_path_buf();
    }
    match shard {
        Some((i, n)) => out.join(format!("{variant}.shard-{i}-of-{n}.{EXTENSION}")),
        None => out.join(format!("{variant}.{EXTENSION}")),
    }
}

/// The settings a run of `o` records.
///
/// # Errors
/// A bad engine configuration (an external engine is refused: the data is our search's).
pub fn settings(o: &DatagenOptions) -> Result<DataSettings> {
    let engine = EngineConfig::load(&o.engine)?;
    if engine.is_external() {
        bail!(
            "--engine {}: datagen records our own search's scores; give `default` or a JSON configuration of the built-in engine",
            o.engine
        );
    }
    let openings_checksum = if crate::run::openings::is_generated(&o.openings) {
        None
    } else {
        let bytes = std::fs::read(&o.openings)
            .with_context(|| format!("reading openings file {}", o.openings))?;
        Some(crate::run::format::fnv1a_hex(&bytes))
    };
    Ok(DataSettings {
        variant: o.variant.name().to_string(),
        variant_file: crate::run::variant_file::definition_for(o.variant),
        engine,
        nodes: o.nodes,
        seed: o.seed,
        openings: o.openings.clone(),
        openings_checksum,
        max_plies: o.max_plies,
        skip_plies: o.skip_plies,
        shard: o.shard,
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: crate::run::format::git_commit(),
    })
}

/// `variantlab datagen`: generates (or resumes, or extends) a data file.
///
/// # Errors
/// Bad settings, a file there made with other settings, or with more games than asked, an
/// unwritable file.
pub fn run(o: &DatagenOptions) -> Result<PathBuf> {
    let settings = settings(o)?;
    let path = data_path(&o.out, o.variant.name(), o.shard);
    with_variant!(o.variant, G => generate::<G>(o, settings, &path))?;
    Ok(path)
}

/// The data file at `path`, created if need be and locked for this process (a second
/// datagen on the same file is refused; shards in one folder are separate files).
fn open_locked(path: &Path) -> Result<std::fs::File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{} is being written by another process (another datagen); wait for it to finish or stop it, then run again to resume",
            path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking {}", path.display()))
        }
    }
}

/// The first game to play into the locked `file` at `path`: 0 for a new file (its header
/// written), else the last game there, whose records are cut off to be played again.
fn prepare(
    file: &mut std::fs::File,
    path: &Path,
    settings: &DataSettings,
    games: u64,
) -> Result<u64> {
    let len = file
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    if len == 0 {
        data::append(file, path, &data::encode_header(settings)?)?;
        return Ok(0);
    }
    let read = data::read(path, Tail::Tolerate)?;
    if read.settings.identity() != settings.identity() {
        bail!(
            "{} holds data made with other settings ({}); choose another --out, or give the same settings to resume or extend it",
            path.display(),
            differences(&read.settings, settings)
        );
    }
    let Some(last) = read.records.last() else {
        truncate(file, path, read.header_len)?;
        return Ok(0);
    };
    if u64::from(last.game) >= games {
        bail!(
            "--games {games}: {} already holds game {}; a data file can grow, not shrink",
            path.display(),
            last.game
        );
    }
    // The last game may have been cut by a kill: its records go and it is played again.
    let first = read
        .records
        .iter()
        .position(|r| r.game == last.game)
        .expect("the last record's game is there");
    truncate(file, path, read.offsets[first])?;
    Ok(u64::from(last.game))
}

/// The fields in which two settings differ, for a refusal.
fn differences(a: &DataSettings, b: &DataSettings) -> String {
    let (a, b) = (
        serde_json::to_value(a.identity()).unwrap_or_default(),
        serde_json::to_value(b.identity()).unwrap_or_default(),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return String::new();
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| v.map_or("none".into(), |v| v.to_string());
            format!("{k}: {} there, {} now", show(a.get(k)), show(b.get(k)))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn truncate(file: &std::fs::File, path: &Path, len: u64) -> Result<()> {
    file.set_len(len)
        .with_context(|| format!("truncating {} to {len} bytes", path.display()))
}

/// The kept positions of a played game, from its start position `start`.
///
/// # Errors
/// A recorded move that does not replay (a bug in the runner, named with the game).
pub fn positions<G: Game>(start: G, game: &Played, skip_plies: u32) -> Result<Vec<Record>> {
    let mut pos = start;
    let mut out = Vec::new();
    let winner = match game.outcome.end {
        GameEnd::Forfeit(..) => bail!("game {}: forfeited", game.slot.id),
        end => end.winner(),
    };
    for (ply, rec) in game.outcome.moves.iter().enumerate() {
        let Some(m) = pos.parse_move(&rec.mv) else {
            bail!(
                "game {}, ply {}: {} does not replay in {}",
                game.slot.id,
                ply + 1,
                rec.mv,
                pos.to_text()
            );
        };
        let side = pos.turn();
        let score = if side == Color::White {
            rec.eval_white
        } else {
            -rec.eval_white
        };
        if ply as u32 >= skip_plies
            && score.abs() < MATE_BOUND
            && !pos.in_check()
            && !pos.is_tactical(m)
        {
            out.push(Record {
                game: u32::try_from(game.slot.id)?,
                ply: u16::try_from(ply).unwrap_or(u16::MAX),
                score: score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
                result: match winner {
                    Some(w) if w == side => 1,
                    Some(_) => -1,
                    None => 0,
                },
                text: pos.to_text(),
            });
        }
        pos.play_unchecked(m);
    }
    Ok(out)
}

fn generate<G: Game>(o: &DatagenOptions, settings: DataSettings, path: &Path) -> Result<()> {
    let openings = Openings::parse::<G>(&o.openings)?;
    settings.engine.validate::<G>()?;
    let mut file = open_locked(path)?;
    let first = prepare(&mut file, path, &settings, o.games)?;
    let engine = settings.engine.clone();
    let matched = MatchSettings {
        variant: o.variant,
        engines: [engine.clone(), engine],
        limits: Limits::nodes(o.nodes),
        tc: None,
        seed: o.seed,
        openings: o.openings.clone(),
        adjudication: Adjudication {
            max_plies: o.max_plies,
            resign: None,
            draw: None,
        },
        record_moves: true,
    };
    let players = matched.players::<G>(None)?;
    // Each game's start position, kept from when it is set up to when its record is written.
    let starts: Mutex<BTreeMap<u64, G>> = Mutex::new(BTreeMap::new());
    let start = |slot: &Slot| {
        let (pos, text) = schedule::pair_opening::<G>(&openings, o.seed, slot);
        starts
            .lock()
            .expect("no panic holding it")
            .insert(slot.id, pos.clone());
        (pos, text)
    };
    let games = Match {
        settings: &matched,
        players: [&players[0], &players[1]],
        start: &start,
    };
    let wanted = |id: u64| id >= first && settings.in_shard(id);
    let total = (0..o.games).filter(|&id| settings.in_shard(id)).count() as u64;
    let done = (0..first).filter(|&id| settings.in_shard(id)).count() as u64;
    let bar = schedule::progress(
        o.quiet,
        Some(total),
        "datagen {bar:30} {pos}/{len} games  {msg}  {per_sec}  eta {eta}",
    );
    bar.set_position(done);
    // Appends go to the end whatever the cursor (the file was read and cut through others).
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0))
        .with_context(|| format!("seeking in {}", path.display()))?;
    let mut positions_written = 0u64;
    let mut write = |g: Played| -> Result<Flow> {
        let start = starts
            .lock()
            .expect("no panic holding it")
            .remove(&g.slot.id)
            .expect("every game's start is kept");
        let records = positions(start, &g, o.skip_plies)?;
        let mut bytes = Vec::new();
        for r in &records {
            r.encode(&mut bytes)?;
        }
        data::append(&mut file, path, &bytes)?;
        positions_written += records.len() as u64;
        bar.set_message(format!("{positions_written} positions"));
        bar.inc(1);
        Ok(Flow::Continue)
    };
    let pool = schedule::pool(o.threads)?;
    games.run(&pool, first..o.games, &wanted, Order::ById, &mut write)?;
    bar.finish_and_clear();
    crate::output::out!(
        "{}: {positions_written} positions from games {first}..{} written to {}",
        o.variant.name(),
        o.games,
        path.display()
    );
    Ok(())
}

/// `variantlab datagen --merge`: the shard files of one run as one file, the one an unsharded
/// run would have written (records in game order).
///
/// # Errors
/// Unreadable or cut files, files of different runs, a shard given twice or missing.
pub fn merge(files: &[PathBuf], out: &Path) -> Result<()> {
    let Some(first) = files.first() else {
        bail!("give the shard files to merge");
    };
    let read: Vec<data::DataFile> = files
        .iter()
        .map(|f| data::read(f, Tail::Refuse))
        .collect::<Result<_>>()?;
    let whole = DataSettings {
        shard: None,
        ..read[0].settings.clone()
    };
    let mut seen = BTreeMap::new();
    for (f, d) in files.iter().zip(&read) {
        let Some((i, n)) = d.settings.shard else {
            bail!("{}: not a shard (made without --shard)", f.display());
        };
        if (DataSettings {
            shard: None,
            ..d.settings.identity()
        }) != whole.identity()
        {
            bail!(
                "{} and {}: made with other settings ({})",
                first.display(),
                f.display(),
                differences(&read[0].settings, &d.settings)
                    .split("; ")
                    .filter(|s| !s.starts_with("shard"))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        if let Some(other) = seen.insert((i, n), f) {
            bail!(
                "{} and {}: both are shard {i}/{n}",
                other.display(),
                f.display()
            );
        }
    }
    let n = read[0].settings.shard.map_or(1, |s| s.1);
    if seen.len() as u64 != n || seen.keys().any(|&(_, m)| m != n) {
        bail!(
            "the files are {} of the {n} shards ({}); give every shard of one run",
            seen.len(),
            seen.keys()
                .map(|(i, m)| format!("{i}/{m}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut records: Vec<Record> = read.into_iter().flat_map(|d| d.records).collect();
    // Stable: a game's records keep their ply order.
    records.sort_by_key(|r| r.game);
    data::write(out, &whole, &records)?;
    crate::output::out!(
        "{} positions from {} shards written to {}",
        records.len(),
        n,
        out.display()
    );
    Ok(())
}

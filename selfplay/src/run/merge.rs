//! `variantlab merge`: shard folders of one study joined into the folder a single run would
//! have written, swapped into place whole.

use crate::output::{out, write_json};
use crate::run::folder_lock::FolderLock;
use crate::run::format::{
    ends_unfinished, games_header, now, read_csv, rewrite, saved_config, RunConfig, Summary,
    MOVES_HEADER,
};
use crate::run::pgn;
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use variantlab_engine::with_variant;

/// Combines shard folders into `out`, refusing folders from different studies. The whole
/// result is written into a folder beside `out` (`OUT.merging`), which then takes `out`'s
/// place in one step ([`crate::run::folder::exchange`]): a kill leaves the old state or the
/// new one, never a mix. `out` is locked meanwhile; a run of another study there is refused
/// unless `force`; whatever variantlab did not write there is kept.
///
/// # Errors
/// Mismatched configurations, a game present twice or with its moves incomplete, an
/// unreadable folder, another run in `out` (without `force`).
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Summary> {
    if dirs.is_empty() {
        bail!("merge needs at least one folder");
    }
    let mut first: Option<RunConfig> = None;
    let mut rows = Vec::new();
    let mut moves = Vec::new();
    let mut header = Vec::new();
    for d in dirs {
        let c = saved_config(d)?.with_context(|| format!("{}: no run.json", d.display()))?;
        match &first {
            None => first = Some(c.clone()),
            Some(f) if f.identity() != c.identity() => {
                bail!(
                    "{} was played with a different configuration than {}; refusing to merge",
                    d.display(),
                    dirs[0].display()
                )
            }
            _ => {}
        }
        c.openings_in(d)?;
        header = games_header(&with_variant!(c.variant, G => G::start().material_kinds()));
        let games_path = d.join("games.csv");
        if ends_unfinished(&games_path)? {
            bail!(
                "{} ends in an unfinished row (a killed run); `variantlab play --resume {}` finishes it before a merge",
                games_path.display(),
                d.display()
            );
        }
        let games = read_csv(&games_path, &header)?;
        if c.record_moves {
            let mh: Vec<String> = MOVES_HEADER.iter().map(|s| s.to_string()).collect();
            let m = read_csv(&d.join("moves.csv"), &mh)?;
            let id_of = |r: &Vec<String>| r[0].parse::<u64>().unwrap_or(u64::MAX);
            let short = crate::run::recorded::short_games(
                games
                    .iter()
                    .map(|r| (id_of(r), r[9].parse().unwrap_or(u64::MAX))),
                m.iter().enumerate().map(|(i, r)| (id_of(r), i as u64 + 2)),
            );
            if let Some(g) = short.first() {
                return Err(crate::run::recorded::short_game_error(d, g));
            }
            let done: BTreeSet<u64> = games.iter().map(id_of).collect();
            moves.extend(m.into_iter().filter(|r| done.contains(&id_of(r))));
        }
        rows.extend(games);
    }
    let mut config = first.expect("at least one folder");
    rows.sort_by_key(|r| r[0].parse::<u64>().unwrap_or(u64::MAX));
    for w in rows.windows(2) {
        if w[0][0] == w[1][0] {
            bail!(
                "game {} appears in two folders; shards must be disjoint",
                w[0][0]
            );
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut lock = FolderLock::acquire(out)?;
    match saved_config(out) {
        Ok(Some(there)) if there.identity() != config.identity() && !force => bail!(
            "{} holds another run ({} games of {}); use --force to replace it, or choose another --out",
            out.display(),
            there.games,
            there.variant.name()
        ),
        Err(e) if !force => {
            return Err(e.context(format!(
                "{} holds a run that cannot be read; use --force to replace it",
                out.display()
            )))
        }
        _ => {}
    }
    let mut staging = out.as_os_str().to_owned();
    staging.push(".merging");
    let staging = PathBuf::from(staging);
    // Left by a merge killed before its swap or before it removed the old run: what it
    // carried over goes back, the rest is the toolkit's files. Its lock is stale (its merge
    // was killed): taken over, so that dropping it removes the file and the folder can go.
    if staging.exists() {
        let stale = FolderLock::acquire(&staging)?;
        carry_over(&staging, out)?;
        crate::run::folder::clear(&staging)?;
        drop(stale);
        std::fs::remove_dir(&staging).with_context(|| format!("removing {}", staging.display()))?;
    }
    std::fs::create_dir(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let mut staging_lock = FolderLock::acquire(&staging)?;
    config.shard = None;
    config.finished = if rows.len() as u64 == config.games {
        Some(now())
    } else {
        None
    };
    if config.openings_checksum.is_some() {
        let to = staging.join(crate::run::folder::OPENINGS_COPY);
        std::fs::copy(dirs[0].join(crate::run::folder::OPENINGS_COPY), &to)
            .with_context(|| format!("copying the openings into {}", to.display()))?;
    }
    write_json(&staging.join("run.json"), &config)?;
    rewrite(&staging.join("games.csv"), &header, rows.clone())?;
    let not_reproducible = !config.reproducible;
    if config.record_moves {
        moves.sort_by_key(|r| {
            (
                r[0].parse::<u64>().unwrap_or(u64::MAX),
                r[1].parse::<u64>().unwrap_or(0),
            )
        });
        if config.pgn {
            pgn::rewrite(
                &staging.join(crate::run::folder::PGN_FILE),
                &config,
                &rows,
                &pgn::moves_by_game(&moves),
            )?;
        }
        rewrite(
            &staging.join("moves.csv"),
            &MOVES_HEADER.map(String::from),
            moves,
        )?;
    }
    // What variantlab did not write in `out` (the shards of examples/parallel, notes) moves
    // into the new folder, so the swap keeps it.
    carry_over(out, &staging)?;
    crate::run::folder::exchange(&staging, out)?;
    staging_lock.moved_to(out);
    lock.moved_to(&staging);
    // The old run, now beside: the toolkit's files only (checked above).
    crate::run::folder::clear(&staging)?;
    drop(lock);
    std::fs::remove_dir(&staging).with_context(|| format!("removing {}", staging.display()))?;
    drop(staging_lock);
    Ok(Summary {
        not_reproducible,
        engines: crate::run::format::engine_names(&config),
        ..Summary::from_rows(&rows)
    })
}

/// Moves the entries of `from` that variantlab did not write into `to` (none there by that
/// name is replaced).
fn carry_over(from: &Path, to: &Path) -> Result<()> {
    for name in crate::run::folder::foreign(from)? {
        let (a, b) = (from.join(&name), to.join(&name));
        if b.exists() {
            bail!(
                "{} and {} both exist; move one away and merge again",
                a.display(),
                b.display()
            );
        }
        std::fs::rename(&a, &b)
            .with_context(|| format!("moving {} to {}", a.display(), b.display()))?;
    }
    Ok(())
}

/// `variantlab merge`: [`merge`], then the merged run's summary.
///
/// # Errors
/// Those of [`merge`].
pub fn merge_command(dirs: &[PathBuf], out: &Path, force: bool) -> Result<()> {
    let summary = merge(dirs, out, force)?;
    out!("{}", summary.line());
    out!("wrote {}", out.join("games.csv").display());
    Ok(())
}

//! Arguments and value parsers shared by the commands' argument sets (`cli`, and
//! `commands::net` for datagen and train-net): one place each check is written.

use crate::run::tournament::RunOptions;
use anyhow::{bail, Context, Result};
use variantlab_engine::VariantKind;

/// `--variant`, of every command about one variant.
#[derive(clap::Args, Debug)]
pub struct VariantArg {
    /// Variant name (see `variantlab variants`) [default: the --variant-file's]
    #[arg(long)]
    pub(crate) variant: Option<String>,
}

impl VariantArg {
    /// The variant given, or else the one loaded variant file's: the one place a command's
    /// variant is looked up by name; everything past it carries the kind.
    pub(crate) fn kind(self) -> Result<VariantKind> {
        if let Some(n) = self.variant {
            return variant(&n);
        }
        let files: Vec<_> = variantlab_engine::variants::file::loaded().collect();
        match files.as_slice() {
            [one] => Ok(one.kind),
            [] => bail!("give --variant NAME (see `variantlab variants`) or --variant-file FILE"),
            several => bail!(
                "give --variant NAME: the variant files define {}",
                several
                    .iter()
                    .map(|l| l.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// How a command that plays games runs them.
#[derive(clap::Args, Debug)]
pub struct WorkerArgs {
    /// Worker threads; results do not depend on it [default: all cores]
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// No progress display.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// A share from 0 to 1.
pub(crate) fn unit_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{s:?} is not a number from 0 to 1")),
    }
}

/// A shrinking factor: a number above 0 and at most 1.
pub(crate) fn unit_share_positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number above 0 and at most 1")),
    }
}

/// A logistic scale: a finite number above 0.
pub(crate) fn positive_scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number above 0")),
    }
}

/// A value parser for counts (`--nodes`, `--games` ...): a whole number of at least `min`,
/// with a message that says so for `0` or `-5` alike.
pub(crate) fn at_least(
    min: u64,
) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |text| {
        let v: i128 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number"))?;
        if v < i128::from(min) {
            return Err(format!("must be at least {min}, got {v}"));
        }
        u64::try_from(v).map_err(|_| format!("{v} is too large"))
    }
}

/// A value parser for game counts: [`at_least`] `min`, and at most
/// [`crate::run::config::MAX_GAMES`], so a mistyped count is an error, not an allocation or a
/// run of centuries.
pub(crate) fn game_count(
    min: u64,
) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    let at_least = at_least(min);
    move |text| {
        let v = at_least(text)?;
        if v > crate::run::config::MAX_GAMES {
            return Err(format!(
                "{v} is too large: at most {} games (shard a larger study and merge)",
                crate::run::config::MAX_GAMES
            ));
        }
        Ok(v)
    }
}

impl WorkerArgs {
    /// The options of a run: the threads checked (all cores unless given).
    pub(crate) fn options(&self) -> Result<RunOptions> {
        Ok(RunOptions {
            threads: threads(self.threads)?,
            quiet: self.quiet,
        })
    }
}

fn threads(t: Option<usize>) -> Result<usize> {
    match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > crate::run::config::MAX_THREADS => bail!(
            "--threads {t} is too large: at most {} (this machine has {} cores)",
            crate::run::config::MAX_THREADS,
            std::thread::available_parallelism().map_or(1, |n| n.get())
        ),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `--shard I/N` of a run of `games` games: the I-th of N slices by pair.
pub(crate) fn parse_shard(s: &str, games: u64) -> Result<(u64, u64)> {
    let (i, n) = s
        .split_once('/')
        .with_context(|| format!("--shard {s:?}: expected I/N"))?;
    let (i, n): (u64, u64) = (
        i.parse()
            .with_context(|| format!("--shard {s:?}: {i:?} is not a number"))?,
        n.parse()
            .with_context(|| format!("--shard {s:?}: {n:?} is not a number"))?,
    );
    if n == 0 || i == 0 || i > n {
        bail!("--shard {s:?}: need 1 <= I <= N");
    }
    let pairs = games.div_ceil(2);
    if i > pairs {
        bail!("--shard {s:?}: {games} games make {pairs} pairs, so slice {i} of {n} would play nothing; use at most {pairs} shards");
    }
    Ok((i, n))
}

/// The variants of a command about several (`study`, `bench`) when none is named: the
/// loaded variant files', or else every built-in variant.
pub(crate) fn files_or_all() -> Vec<VariantKind> {
    let files: Vec<VariantKind> = variantlab_engine::variants::file::loaded()
        .map(|l| l.kind)
        .collect();
    if files.is_empty() {
        VariantKind::ALL.to_vec()
    } else {
        files
    }
}

/// A variant name of the command line, parsed: the one place a command's variant is looked
/// up by name (the loaded variant file's included); everything past it carries the kind.
pub(crate) fn variant(name: &str) -> Result<VariantKind> {
    Ok(VariantKind::from_name(name)?)
}

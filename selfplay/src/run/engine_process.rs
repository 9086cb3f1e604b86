//! External engines over UCI: a child process started from a command line, spoken to through
//! its standard input and output, its standard error appended to a log file.
//!
//! Every wait has a deadline: a reader thread forwards the engine's output lines into a
//! channel, read with `recv_timeout`, so an engine that hangs costs its game (the caller
//! declares a time forfeit) and never the run. An engine whose process ends or whose pipes
//! break is marked broken; [`EnginePool`] starts a fresh one for the next game.
//!
//! What an engine writes is bounded ([`MAX_LINE`], [`MAX_REPLY_BYTES`]): past either it has
//! broken the protocol ([`EngineError::Protocol`]) and loses the game, so a flood costs
//! memory in proportion to the bounds, never the run. Each engine runs in its own process
//! group, killed as a whole when its [`UciEngine`] is dropped, so a wrapper script's
//! children go with it; an engine whose process has exited has crashed even while a child
//! keeps its output open.

use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use variantlab_engine::search::MATE;

/// How long an engine may take to answer `uci` with `uciok`, or `isready` with `readyok`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Lines of the engine's standard error kept for error messages.
const STDERR_TAIL: usize = 20;

/// The longest line an engine may write, in bytes (UCI lines are short: a `pv` of a few
/// hundred moves fits many times over).
pub const MAX_LINE: usize = 64 * 1024;

/// The most bytes an engine may write while one command awaits its answer (`uciok`,
/// `readyok`, or a move's `bestmove` with all its `info` lines).
pub const MAX_REPLY_BYTES: usize = 16 * 1024 * 1024;

/// The most bytes of an engine process's standard error kept in its log; the rest is read
/// and dropped (one line says so).
const MAX_STDERR_LOG: u64 = 64 * 1024 * 1024;

/// How often a wait checks whether the engine's process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// How long lines an exited engine wrote before its end may still take to arrive.
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// Splits a command line into words as a shell would in simple cases: words are separated by
/// whitespace, and `"double quotes"` group words (the quotes are removed). No other shell
/// syntax: no variables, globs, pipes or escapes.
///
/// # Errors
/// An unclosed quote, or no words at all.
pub fn split_command(command: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut in_word) = (false, false);
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        bail!("engine command {command:?}: unclosed double quote");
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        bail!("engine command {command:?}: empty");
    }
    Ok(words)
}

/// A short name for the engine a command starts, for CSV columns and log file names: the
/// program's file name without extension (`stockfish`, `variantlab`), or for an interpreter
/// (`python3 x.py`, `sh x.sh` ...) its script's. Only letters, digits, `.`, `_` and `-`.
pub fn engine_name(command: &str) -> String {
    let words = split_command(command).unwrap_or_default();
    let stem = |w: &str| {
        Path::new(w)
            .file_stem()
            .map_or_else(|| w.to_string(), |s| s.to_string_lossy().into_owned())
    };
    let mut name = words.first().map(|w| stem(w)).unwrap_or_default();
    let interpreter = name.starts_with("python")
        || [
            "perl", "ruby", "node", "sh", "bash", "java", "pypy", "pypy3",
        ]
        .contains(&name.as_str());
    if interpreter {
        if let Some(script) = words.iter().skip(1).find(|w| !w.starts_with('-')) {
            name = stem(script);
        }
    }
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "engine".into()
    } else {
        name
    }
}

/// Why an engine gave no usable answer during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended or a pipe broke (with what is known: exit status, stderr's end).
    Crashed(String),
    /// No answer before the deadline (what was awaited).
    Timeout(String),
    /// Output past the bounds: a line over [`MAX_LINE`] or more than [`MAX_REPLY_BYTES`]
    /// for one answer.
    Protocol(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) => write!(f, "the engine crashed: {s}"),
            EngineError::Timeout(s) => write!(f, "no answer in time: {s}"),
            EngineError::Protocol(s) => write!(f, "the engine broke the protocol: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoReply {
    /// The word after `bestmove` (empty when there was none).
    pub bestmove: String,
    /// The last `info ... score` before it that is not a `lowerbound` or `upperbound` (an
    /// aspiration window's miss), else the last bound; in centipawns from the mover's point
    /// of view (`mate N` mapped to the searcher's mate scores).
    pub score: Option<i32>,
}

/// The score of an `info` line: `score cp N` or `score mate N`, from the mover's view.
pub fn info_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return None;
    }
    let i = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(MATE - (2 * value - 1)),
        "mate" => Some(-MATE + 2 * value.abs()),
        _ => None,
    }
}

/// What the stdout reader passes on.
enum Output {
    /// A line, trimmed, and the bytes it took.
    Line(String, usize),
    /// A line longer than [`MAX_LINE`]; the reader stopped.
    TooLong,
}

/// A running UCI engine.
pub struct UciEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    /// Bytes read since the current command was sent.
    read: usize,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Receiver<()>,
    /// `option name NAME type ...` lines, by name.
    options: BTreeMap<String, String>,
    broken: bool,
}

impl UciEngine {
    /// Starts `command` (see [`split_command`]) with its standard error appended to `log`
    /// (kept in memory for error messages only when `None`), and completes the `uci`
    /// handshake.
    ///
    /// # Errors
    /// A program that cannot be started, or that does not answer `uciok` within
    /// [`HANDSHAKE_TIMEOUT`] (with the end of its standard error).
    pub fn start(command: &str, log: Option<&Path>) -> Result<UciEngine> {
        let words = split_command(command)?;
        let log_file = match log {
            Some(p) => {
                if let Some(dir) = p.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating {}", dir.display()))?;
                }
                Some(
                    OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(p)
                        .with_context(|| format!("opening {}", p.display()))?,
                )
            }
            None => None,
        };
        let mut command_line = Command::new(&words[0]);
        command_line
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command_line, 0);
        let mut child = command_line
            .spawn()
            .with_context(|| format!("engine {command:?}: cannot start {:?}", words[0]))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let stderr = child.stderr.take().context("engine stderr")?;
        // Bounded, so a reader faster than the referee holds at most this many lines.
        let (tx, lines) = mpsc::sync_channel(256);
        std::thread::Builder::new()
            .name("uci-stdout".into())
            .spawn(move || {
                for_each_line(stdout, |line, whole| {
                    let out = if whole {
                        Output::Line(String::from_utf8_lossy(line).trim().to_string(), line.len())
                    } else {
                        Output::TooLong
                    };
                    tx.send(out).is_ok() && whole
                });
            })
            .context("starting a reader thread")?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr_tail);
        std::thread::Builder::new()
            .name("uci-stderr".into())
            .spawn(move || {
                copy_stderr(stderr, log_file, &tail);
                let _ = done_tx.send(());
            })
            .context("starting a reader thread")?;
        let mut engine = UciEngine {
            command: command.to_string(),
            child,
            stdin,
            lines,
            read: 0,
            stderr_tail,
            stderr_done,
            options: BTreeMap::new(),
            broken: false,
        };
        engine
            .handshake()
            .map_err(|e| anyhow::anyhow!("engine {command:?} failed the UCI handshake: {e}"))?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.read = 0;
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self.recv(deadline, "uciok after uci")?;
            if line == "uciok" {
                return Ok(());
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest
                    .split(" type ")
                    .next()
                    .unwrap_or(rest)
                    .trim()
                    .to_string();
                self.options.insert(name, line.clone());
            }
        }
    }

    /// The command this engine was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The option advertised as `name` (case-insensitively): its whole `option` line.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets `options`, the variant file's `definition` (`VariantPath`, when the engine has that
    /// option) and the variant (`UCI_Variant`, when the variant is not chess), then waits for
    /// `readyok`. The options go first and the option list is read again (`uci` once more), since
    /// an option may change the variants the engine knows: Fairy-Stockfish reprints its
    /// `UCI_Variant` list after a `VariantPath`.
    ///
    /// # Errors
    /// An engine that cannot play `variant` (no `UCI_Variant` option, or one whose list
    /// lacks it), a definition the engine would need but cannot be given, an option it does not
    /// advertise, or no `readyok`.
    pub fn configure(
        &mut self,
        variant: &str,
        options: &BTreeMap<String, String>,
        definition: &Definition,
    ) -> Result<()> {
        let command = self.command.clone();
        if variant != "chess" && self.option("UCI_Variant").is_none() {
            bail!("engine {command:?} has no UCI_Variant option, so it plays only chess, not {variant}");
        }
        let takes_files = self.option("VariantPath").is_some();
        let mut sends: Vec<(String, String)> = Vec::new();
        let mut check_list = true;
        match definition {
            Definition::Exported(Some(path)) if takes_files => {
                sends.push(("VariantPath".to_string(), path.display().to_string()));
            }
            // Validation: the definition is written with the run, and checked then.
            Definition::Exported(None) if takes_files => check_list = false,
            Definition::Unavailable(why) if takes_files => bail!(
                "engine {command:?} learns a variant from a Fairy-Stockfish variant file (VariantPath), and {why}; name a file of its own with \"options\": {{\"VariantPath\": ...}}"
            ),
            _ => {}
        }
        for (name, value) in options {
            let Some(line) = self.option(name) else {
                let known: Vec<&String> = self.options.keys().collect();
                bail!("engine {command:?} has no option {name:?}; it has {known:?}");
            };
            let real = line["option name ".len()..]
                .split(" type ")
                .next()
                .unwrap_or(name)
                .trim()
                .to_string();
            sends.push((real, value.clone()));
        }
        for (name, value) in &sends {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if variant != "chess" && check_list {
            if !sends.is_empty() {
                self.handshake().map_err(|e| {
                    anyhow::anyhow!("engine {command:?}: reading its options again: {e}")
                })?;
            }
            let line = self.option("UCI_Variant").unwrap_or_default();
            let vars: Vec<&str> = line
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1])
                .collect();
            if !vars.is_empty() && !vars.contains(&variant) {
                let hint = match definition {
                    Definition::Exported(_) => {
                        ", and it has no VariantPath option to be given the variant file's definition"
                    }
                    _ => "",
                };
                bail!("engine {command:?} does not play {variant} (its UCI_Variant knows {} variants, not this one{hint})", vars.len());
            }
            self.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        self.sync()
            .map_err(|e| anyhow::anyhow!("engine {command:?}: {e}"))
    }

    /// `isready`, then waits for `readyok` (other lines are dropped).
    ///
    /// # Errors
    /// A crash, or no `readyok` within [`HANDSHAKE_TIMEOUT`].
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.read = 0;
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.recv(deadline, "readyok after isready")? != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` and `isready`.
    ///
    /// # Errors
    /// As [`UciEngine::sync`].
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// Sends `position` and `go`, and waits until `timeout` for `bestmove`, keeping the last
    /// score of the `info` lines.
    ///
    /// # Errors
    /// A crash or the deadline passing (the engine is then broken: it may still be
    /// searching).
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<GoReply, EngineError> {
        self.read = 0;
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        let (mut exact, mut bound) = (None, None);
        loop {
            let line = self.recv(deadline, "bestmove after go")?;
            if line == "bestmove" || line.starts_with("bestmove ") {
                let bestmove = line.split_whitespace().nth(1).unwrap_or("").to_string();
                let score = exact.or(bound);
                return Ok(GoReply { bestmove, score });
            }
            if let Some(s) = info_score(&line) {
                let is_bound = line
                    .split_whitespace()
                    .any(|w| w == "lowerbound" || w == "upperbound");
                if is_bound {
                    bound = Some(s);
                } else {
                    exact = Some(s);
                }
            }
        }
    }

    /// Whether the engine crashed or missed a deadline; such an engine is not reused.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Writes one line to the engine.
    ///
    /// # Errors
    /// A broken pipe (the engine is gone).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let r = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        r.map_err(|e| {
            self.broken = true;
            EngineError::Crashed(self.describe_exit(&format!("writing to it failed: {e}")))
        })
    }

    /// The next line before `deadline`. Checks every [`EXIT_POLL`] whether the process has
    /// exited: a child it left may hold its output open, and the wait would end only at the
    /// deadline, as a time forfeit.
    fn recv(&mut self, deadline: Instant, what: &str) -> Result<String, EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let exited = matches!(self.child.try_wait(), Ok(Some(_)));
            let wait = if exited {
                EXIT_GRACE.min(left)
            } else {
                EXIT_POLL.min(left)
            };
            match self.lines.recv_timeout(wait) {
                Ok(Output::Line(line, bytes)) => {
                    self.read += bytes;
                    if self.read > MAX_REPLY_BYTES {
                        self.broken = true;
                        return Err(EngineError::Protocol(format!(
                            "more than {} MiB of output while waiting for {what}",
                            MAX_REPLY_BYTES >> 20
                        )));
                    }
                    return Ok(line);
                }
                Ok(Output::TooLong) => {
                    self.broken = true;
                    return Err(EngineError::Protocol(format!(
                        "a line longer than {} KiB while waiting for {what}",
                        MAX_LINE >> 10
                    )));
                }
                Err(RecvTimeoutError::Timeout) if exited => {
                    self.broken = true;
                    return Err(EngineError::Crashed(self.describe_exit(&format!(
                        "its process ended while waiting for {what}"
                    ))));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        self.broken = true;
                        return Err(EngineError::Timeout(what.to_string()));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    return Err(EngineError::Crashed(self.describe_exit(&format!(
                        "its output ended while waiting for {what}"
                    ))));
                }
            }
        }
    }

    /// What is known about an engine that went away: exit status and the end of stderr.
    fn describe_exit(&mut self, what: &str) -> String {
        // Give the process and the stderr reader a moment to finish.
        let mut status = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                let _ = self
                    .stderr_done
                    .recv_timeout(until.saturating_duration_since(Instant::now()));
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut s = what.to_string();
        if let Some(st) = status {
            s += &format!(" ({st})");
        }
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let last: Vec<String> = tail.iter().rev().take(3).rev().cloned().collect();
        if !last.is_empty() {
            s += &format!("; its stderr ends: {}", last.join(" | "));
        }
        s
    }
}

impl Drop for UciEngine {
    /// Kills the engine's whole process group (the children of a wrapper script too), then
    /// reaps the engine.
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Ok(group) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) takes plain integers; the group is the engine's own (its id
            // is the engine's pid, not reused while a member of the group lives).
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn copy_stderr(
    stderr: std::process::ChildStderr,
    mut log: Option<File>,
    tail: &Mutex<VecDeque<String>>,
) {
    let mut logged = 0u64;
    for_each_line(stderr, |line, _| {
        if let Some(f) = log.as_mut() {
            logged += line.len() as u64;
            if logged > MAX_STDERR_LOG {
                let _ = writeln!(
                    f,
                    "# variantlab: stderr past {} MiB dropped",
                    MAX_STDERR_LOG >> 20
                );
                log = None;
            } else {
                let _ = f.write_all(line);
                if !line.ends_with(b"\n") {
                    let _ = f.write_all(b"\n");
                }
            }
        }
        if let Ok(mut t) = tail.lock() {
            if t.len() == STDERR_TAIL {
                t.pop_front();
            }
            t.push_back(String::from_utf8_lossy(line).trim_end().to_string());
        }
        true
    });
}

/// Calls `f` with every line (bytes, newline included when there is one) read from `r`
/// until the end, a read error, or `f` returning false; a line longer than [`MAX_LINE`]
/// comes in pieces of that length with `whole` false. Bytes, not `String`: an engine's
/// output need not be UTF-8.
fn for_each_line(r: impl Read, mut f: impl FnMut(&[u8], bool) -> bool) {
    let mut r = BufReader::new(r);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut r).take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let whole = buf.ends_with(b"\n") || buf.len() < MAX_LINE;
                if !f(&buf, whole) {
                    break;
                }
            }
        }
    }
}

/// What an external engine is given of a variant file's rules: Fairy-Stockfish and its kin
/// learn a variant from a file of their format (`VariantPath`), so a variant file played
/// against one is exported into the run folder and named there (nothing outside the folder is
/// written). Engines without a `VariantPath` option are given nothing and play the variant only
/// if they know its name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Definition {
    /// Nothing to give: a built-in variant, or options that name the engine's own `VariantPath`.
    #[default]
    None,
    /// The variant file exported to Fairy-Stockfish's format, written at this path; `None`
    /// before the run folder is written (the check before a run: the engine's list of variants
    /// is checked once the file is there).
    Exported(Option<PathBuf>),
    /// Why the variant file cannot be given: not expressible in the format, or no run folder.
    Unavailable(String),
}

/// The engines of one configuration in a run: started and configured alike, one per worker
/// thread at most, reused from game to game; a broken one is dropped (killed) and replaced.
pub struct EnginePool {
    command: String,
    variant: String,
    options: BTreeMap<String, String>,
    definition: Definition,
    log: Option<PathBuf>,
    idle: Mutex<Vec<UciEngine>>,
}

impl EnginePool {
    /// A pool for `command`, playing `variant` (given as `definition`) with `options`,
    /// stderr appended to `log`. One engine is started and configured now, so a missing
    /// program or an engine that cannot play the variant is an error before any game.
    ///
    /// # Errors
    /// As [`UciEngine::start`] and [`UciEngine::configure`].
    pub fn new(
        command: &str,
        variant: &str,
        options: &BTreeMap<String, String>,
        definition: Definition,
        log: Option<PathBuf>,
    ) -> Result<Arc<EnginePool>> {
        let pool = EnginePool {
            command: command.to_string(),
            variant: variant.to_string(),
            options: options.clone(),
            definition,
            log,
            idle: Mutex::new(Vec::new()),
        };
        let first = pool.start_engine()?;
        pool.give_back(first);
        Ok(Arc::new(pool))
    }

    /// Starts and configures a new engine.
    ///
    /// # Errors
    /// As [`EnginePool::new`].
    pub fn start_engine(&self) -> Result<UciEngine> {
        let mut e = UciEngine::start(&self.command, self.log.as_deref())?;
        e.configure(&self.variant, &self.options, &self.definition)?;
        Ok(e)
    }

    /// An idle engine, if there is one.
    pub fn take(&self) -> Option<UciEngine> {
        self.idle.lock().ok()?.pop()
    }

    /// Returns an engine after a game; a broken one is dropped (and so killed).
    pub fn give_back(&self, engine: UciEngine) {
        if !engine.is_broken() {
            if let Ok(mut idle) = self.idle.lock() {
                idle.push(engine);
            }
        }
    }

    /// Appends a line from variantlab (why a game was forfeited) to the stderr log.
    pub fn note(&self, text: &str) {
        if let Some(p) = &self.log {
            if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(p) {
                let _ = f.write_all(format!("# variantlab: {text}\n").as_bytes());
            }
        }
    }

    /// The command the engines run.
    pub fn command(&self) -> &str {
        &self.command
    }
}

/// One game's hold on an engine of a pool: started (or restarted) when the game begins,
/// returned to the pool when dropped.
pub struct PooledEngine {
    pool: Arc<EnginePool>,
    engine: Option<UciEngine>,
}

impl PooledEngine {
    /// A hold on `pool`; no engine is taken until [`PooledEngine::new_game`].
    pub fn new(pool: Arc<EnginePool>) -> PooledEngine {
        PooledEngine { pool, engine: None }
    }

    /// The pool.
    pub fn pool(&self) -> &EnginePool {
        &self.pool
    }

    /// Takes an idle engine or starts one (replacing a broken one), then `ucinewgame`.
    ///
    /// # Errors
    /// An engine that cannot be started or does not answer `isready` (as a crash).
    pub fn new_game(&mut self) -> Result<&mut UciEngine, EngineError> {
        if self.engine.as_ref().is_none_or(UciEngine::is_broken) {
            self.engine = None;
            let e = match self.pool.take() {
                Some(e) => e,
                None => self
                    .pool
                    .start_engine()
                    .map_err(|e| EngineError::Crashed(format!("{e:#}")))?,
            };
            self.engine = Some(e);
        }
        let e = self.engine.as_mut().expect("set above");
        match e.new_game() {
            Ok(()) => Ok(e),
            Err(EngineError::Timeout(w)) => Err(EngineError::Crashed(format!(
                "no {w} in {HANDSHAKE_TIMEOUT:?}"
            ))),
            Err(err) => Err(err),
        }
    }

    /// The engine of the current game.
    pub fn engine(&mut self) -> Option<&mut UciEngine> {
        self.engine.as_mut()
    }
}

impl Drop for PooledEngine {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            self.pool.give_back(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("stockfish").unwrap(), ["stockfish"]);
        assert_eq!(
            split_command("  target/release/variantlab   uci ").unwrap(),
            ["target/release/variantlab", "uci"]
        );
        assert_eq!(
            split_command(r#""/opt/my engine/x" --flag "a b"c"#).unwrap(),
            ["/opt/my engine/x", "--flag", "a bc"]
        );
        assert_eq!(split_command(r#"x """#).unwrap(), ["x", ""]);
        assert!(split_command("\"x").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn names_come_from_the_program_or_its_script() {
        assert_eq!(engine_name("/usr/games/stockfish"), "stockfish");
        assert_eq!(engine_name("target/release/variantlab uci"), "variantlab");
        assert_eq!(engine_name("python3 -u /tmp/x/illegal.py"), "illegal");
        assert_eq!(engine_name("\"my engine.exe\""), "my_engine");
    }

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(
            info_score("info depth 3 score cp -25 nodes 10 pv e2e4"),
            Some(-25)
        );
        assert_eq!(
            info_score("info depth 9 score mate 1 pv a1a8"),
            Some(MATE - 1)
        );
        assert_eq!(info_score("info score mate -2"), Some(-MATE + 4));
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("info depth 1 nodes 3"), None);
    }
}

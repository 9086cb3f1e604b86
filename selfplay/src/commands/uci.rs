//! `variantlab uci`: the engine over the Universal Chess Interface, as Stockfish and
//! Fairy-Stockfish speak it, so builds can be compared as processes and tools can drive it.
//!
//! A reader thread turns standard input into a channel of lines; the session (generic over
//! the variant, dispatched once per `UCI_Variant`) answers them. `go` runs the search on its
//! own thread with a stop flag, so `stop`, `isready` and `quit` are answered while it
//! thinks. Bad input (an unknown command, a bad position text, an illegal move) gets an
//! `info string` naming the problem and leaves the last good position in place.
//!
//! Options: `UCI_Variant` (combo of every variant name), `Hash` (MiB), `Threads` (1),
//! `EngineConfig` (path of a JSON engine configuration, as `--white` takes), `Randomize`
//! (root randomisation in centipawns, 0 by default so the engine plays its best move), and
//! one spin option per search parameter (`lmr_divisor`, ...: `Param`), so a tuner that
//! speaks UCI can set them.

use crate::run::config::EngineConfig;
use anyhow::Result;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use variantlab_engine::game::Game;
use variantlab_engine::search::{
    Limits, Param, SearchConfig, SearchParams, SearchResult, Searcher, THREAD_STACK,
};
use variantlab_engine::{with_variant, Color, VariantKind};

/// The longest input line read (a `position` of thousands of moves fits).
const MAX_INPUT_LINE: u64 = 1 << 20;

/// Writes one line to standard output and flushes it; a closed output ends the engine
/// quietly (its reader went away).
fn emit(line: &str) {
    let mut o = std::io::stdout().lock();
    if o.write_all(line.as_bytes())
        .and_then(|()| o.write_all(b"\n"))
        .and_then(|()| o.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Settings that outlive a variant switch.
struct Options {
    variant: VariantKind,
    hash_mib: usize,
    randomize: i32,
    config: EngineConfig,
}

impl Options {
    fn search_config<G: Game>(&self) -> SearchConfig {
        let mut c = self
            .config
            .search_config::<G>(0)
            .unwrap_or_else(|_| SearchConfig::default());
        c.hash_mib = self.hash_mib;
        c.randomize = self.randomize;
        c
    }
}

/// What the session loop asks of its caller.
enum Next {
    Quit,
    Variant(VariantKind),
}

/// Runs the UCI loop on standard input and output until `quit` or the end of input.
///
/// # Errors
/// None in practice: bad input is answered with `info string`, never an error.
pub fn run() -> Result<()> {
    let (tx, rx) = channel::<String>();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // Bounded: a line without an end must not fill memory.
            match (&mut input)
                .take(MAX_INPUT_LINE)
                .read_until(b'\n', &mut buf)
            {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if buf.len() as u64 == MAX_INPUT_LINE && !buf.ends_with(b"\n") {
                emit(&format!(
                    "info string a line longer than {} KiB ignored",
                    MAX_INPUT_LINE >> 10
                ));
                // Skip the rest of it.
                while !buf.ends_with(b"\n") {
                    buf.clear();
                    match (&mut input)
                        .take(MAX_INPUT_LINE)
                        .read_until(b'\n', &mut buf)
                    {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                }
                continue;
            }
            let Ok(line) = std::str::from_utf8(&buf) else {
                emit("info string a line that is not UTF-8 ignored");
                continue;
            };
            if tx
                .send(line.trim_end_matches(['\n', '\r']).to_string())
                .is_err()
            {
                break;
            }
        }
    });
    let mut options = Options {
        // `variantlab --variant-file F uci` starts in the file's variant.
        variant: variantlab_engine::variants::file::loaded()
            .next()
            .map_or(VariantKind::Chess, |l| l.kind),
        hash_mib: 16,
        randomize: 0,
        config: EngineConfig::default_named(),
    };
    loop {
        let next =
            with_variant!(options.variant, G => Session::<G>::new(&options).run(&rx, &mut options));
        match next {
            Next::Quit => return Ok(()),
            Next::Variant(k) => options.variant = k,
        }
    }
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<Searcher>,
    stop: Arc<AtomicBool>,
}

/// One variant's session: the position and the searcher.
struct Session<G: Game> {
    start: G,
    pos: G,
    /// Hashes of the positions before `pos` in the game (repetition detection).
    history: Vec<u64>,
    searcher: Option<Searcher>,
    running: Option<Running>,
}

impl<G: Game + Send + 'static> Session<G> {
    fn new(options: &Options) -> Self {
        let start = G::start();
        Session {
            pos: start.clone(),
            start,
            history: Vec::new(),
            searcher: Some(Searcher::new(options.search_config::<G>())),
            running: None,
        }
    }

    fn run(&mut self, rx: &Receiver<String>, options: &mut Options) -> Next {
        loop {
            let Ok(line) = rx.recv() else {
                // End of input: finish as after `quit`.
                self.stop_search();
                return Next::Quit;
            };
            let line = line.trim();
            let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match cmd {
                "" => {}
                "uci" => {
                    emit(&format!("id name variantlab {}", env!("CARGO_PKG_VERSION")));
                    emit("id author the variantlab developers");
                    let names: Vec<String> = VariantKind::ALL
                        .into_iter()
                        .chain(variantlab_engine::variants::file::loaded().map(|l| l.kind))
                        .map(|k| format!("var {}", k.name()))
                        .collect();
                    emit(&format!(
                        "option name UCI_Variant type combo default {} {}",
                        options.variant.name(),
                        names.join(" ")
                    ));
                    emit("option name UCI_VariantFile type string default <empty>");
                    emit(&format!(
                        "option name Hash type spin default 16 min 0 max {}",
                        variantlab_engine::search::tt::MAX_HASH_MIB
                    ));
                    emit("option name Threads type spin default 1 min 1 max 1");
                    emit("option name EngineConfig type string default <empty>");
                    emit("option name Randomize type spin default 0 min 0 max 1000");
                    for p in Param::ALL {
                        let r = p.range();
                        emit(&format!(
                            "option name {} type spin default {} min {} max {}",
                            p.name(),
                            p.default_value(),
                            r.start(),
                            r.end()
                        ));
                    }
                    emit("uciok");
                }
                "isready" => emit("readyok"),
                "ucinewgame" => {
                    self.stop_search();
                    if let Some(s) = self.searcher.as_mut() {
                        s.clear();
                    }
                    self.pos = self.start.clone();
                    self.history.clear();
                }
                "setoption" => {
                    self.stop_search();
                    if let Some(next) = self.set_option(rest, options) {
                        return next;
                    }
                }
                "position" => {
                    self.stop_search();
                    if let Err(e) = self.set_position(rest) {
                        emit(&format!("info string {e}; position unchanged"));
                    }
                }
                "go" => {
                    self.stop_search();
                    self.go(rest);
                }
                "stop" => self.stop_search(),
                "ponderhit" => {}
                "quit" => {
                    self.stop_search();
                    return Next::Quit;
                }
                "d" => self.display(),
                "eval" => {
                    self.stop_search();
                    self.eval_trace();
                }
                _ => emit(&format!("info string unknown command: {line}")),
            }
        }
    }

    /// Ends a running search (its thread prints `bestmove`) and takes the searcher back.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => emit("info string the search thread failed"),
            }
        }
    }

    fn set_option(&mut self, text: &str, options: &mut Options) -> Option<Next> {
        let Some(body) = text.strip_prefix("name ") else {
            emit(&format!("info string setoption needs `name`: {text}"));
            return None;
        };
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (body.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match VariantKind::from_name(value) {
                Ok(k) if k == options.variant => None,
                Ok(k) => Some(Next::Variant(k)),
                Err(e) => {
                    emit(&format!("info string {e}"));
                    None
                }
            },
            // A variant file (docs/variant-files.md): loaded, then played, as UCI_Variant would.
            "uci_variantfile" => {
                if value.is_empty() || value == "<empty>" {
                    return None;
                }
                match variantlab_engine::variants::file::load(std::path::Path::new(value)) {
                    Ok(l) if l.kind == options.variant => None,
                    Ok(l) => Some(Next::Variant(l.kind)),
                    Err(e) => {
                        emit(&format!("info string {e}"));
                        None
                    }
                }
            }
            "hash" => {
                match value
                    .parse::<usize>()
                    .map_err(|e| e.to_string())
                    .and_then(|mib| {
                        variantlab_engine::search::tt::TranspositionTable::try_new(mib).map(|_| mib)
                    }) {
                    Ok(mib) => {
                        options.hash_mib = mib;
                        self.searcher = Some(Searcher::new(options.search_config::<G>()));
                    }
                    Err(e) => emit(&format!("info string Hash {value:?}: {e}")),
                }
                None
            }
            "threads" => {
                if value != "1" {
                    emit("info string Threads: this engine searches on one thread");
                }
                None
            }
            "randomize" => {
                match value.parse::<i32>() {
                    Ok(cp) if (0..=1000).contains(&cp) => {
                        options.randomize = cp;
                        self.searcher = Some(Searcher::new(options.search_config::<G>()));
                    }
                    _ => emit(&format!("info string Randomize {value:?}: 0 to 1000")),
                }
                None
            }
            "engineconfig" => {
                let loaded = if value.is_empty() || value == "<empty>" {
                    Ok(EngineConfig::default_named())
                } else {
                    EngineConfig::load(value)
                };
                // This engine searches itself; it starts no other process.
                let loaded = loaded.and_then(|c| {
                    if c.is_external() {
                        anyhow::bail!("an external engine ({value}) cannot be used over UCI");
                    }
                    Ok(c)
                });
                match loaded.and_then(|c| c.validate::<G>().map(|()| c)) {
                    Ok(c) => {
                        if let Some(h) = c.hash_mib {
                            options.hash_mib = h;
                        }
                        options.config = c;
                        self.searcher = Some(Searcher::new(options.search_config::<G>()));
                    }
                    Err(e) => emit(&format!("info string EngineConfig: {e:#}")),
                }
                None
            }
            // A search parameter (`Param`): on top of the EngineConfig's, until the next one.
            lower if Param::from_name(lower).is_some() => {
                let checked = value
                    .parse::<i64>()
                    .map_err(|e| e.to_string())
                    .and_then(|v| {
                        SearchParams::default()
                            .set(lower, v)
                            .map(|()| v)
                            .map_err(|e| e.to_string())
                    });
                match checked {
                    Ok(v) => {
                        options.config.params.insert(lower.to_string(), v);
                        self.searcher = Some(Searcher::new(options.search_config::<G>()));
                    }
                    Err(e) => emit(&format!("info string {name} {value:?}: {e}")),
                }
                None
            }
            _ => {
                emit(&format!("info string unknown option {name:?}"));
                None
            }
        }
    }

    /// `startpos | fen TEXT` then optionally `moves m1 m2 ...`; all or nothing.
    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let (setup, moves) = match text.find(" moves") {
            Some(i) if text[i + 6..].is_empty() || text[i + 6..].starts_with(' ') => {
                (text[..i].trim(), text[i + 6..].trim())
            }
            _ => (text.trim(), ""),
        };
        let mut pos = if setup == "startpos" {
            G::start()
        } else if let Some(fen) = setup.strip_prefix("fen ") {
            G::from_text(fen.trim()).map_err(|e| format!("bad position text: {e}"))?
        } else {
            return Err(format!(
                "position needs `startpos` or `fen TEXT`, got {setup:?}"
            ));
        };
        let mut history = Vec::new();
        for word in moves.split_whitespace() {
            let m = pos
                .parse_move(word)
                .ok_or_else(|| format!("illegal move {word:?} in {}", pos.to_text()))?;
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
        self.pos = pos;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |key: &str| -> Option<u64> {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse::<i64>().ok())
                .map(|v| v.max(0) as u64)
        };
        let infinite = words.contains(&"infinite");
        let mut limits = Limits {
            depth: number("depth").map(|d| d.clamp(1, 127) as u32),
            nodes: number("nodes").map(|n| n.max(1)),
            movetime: number("movetime").map(|ms| Duration::from_millis(ms.max(1))),
            soft_time: None,
        };
        let (time, inc) = match self.pos.turn() {
            Color::White => (number("wtime"), number("winc")),
            Color::Black => (number("btime"), number("binc")),
        };
        if let (Some(t), None) = (time, limits.movetime) {
            let budget = budget_ms(t, inc.unwrap_or(0), number("movestogo"));
            limits = limits.on_clock(Duration::from_millis(budget));
        }
        let Some(mut searcher) = self.searcher.take() else {
            emit("info string no searcher");
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop_flag(Some(stop.clone()));
        let (pos, history, flag) = (self.pos.clone(), self.history.clone(), stop.clone());
        let spawned = std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn(move || {
                let r = searcher.search_reporting(&pos, &history, limits, &mut |r| {
                    emit(&info_line(&pos, r));
                });
                // `go infinite` answers only after `stop`.
                while infinite && !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                emit(&info_line(&pos, &r));
                match r.best {
                    Some(m) => emit(&format!("bestmove {}", pos.move_text(m))),
                    None => emit("bestmove (none)"),
                }
                searcher
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { handle, stop }),
            Err(e) => emit(&format!("info string cannot start the search: {e}")),
        }
    }

    /// The `eval` command: the static evaluation by feature group, as engine authors compare
    /// with another engine's trace.
    fn eval_trace(&mut self) {
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        let net = searcher.config().eval.network::<G>().ok().flatten();
        let trace = searcher.trace(&self.pos);
        if let Some(t) = &trace {
            for line in variantlab_engine::eval::trace_table(t, self.pos.turn()).lines() {
                emit(line);
            }
        }
        match (net, trace) {
            (Some(net), _) => emit(&format!(
                "info string eval: network ({} cells, {}): {} cp for the side to move{}",
                net.hidden(),
                net.info.inputs,
                net.evaluate(&self.pos),
                if net.on_linear() {
                    ", added to the linear evaluation"
                } else {
                    ""
                }
            )),
            (None, None) => emit("info string eval: the classic evaluation has no feature trace"),
            (None, Some(_)) => {}
        }
    }

    fn display(&self) {
        emit(&format!("Fen: {}", self.pos.to_text()));
        emit(&format!(
            "Side to move: {}",
            match self.pos.turn() {
                Color::White => "white",
                Color::Black => "black",
            }
        ));
        let mut moves = G::Moves::default();
        self.pos.legal_moves(&mut moves);
        let texts: Vec<String> = moves
            .as_ref()
            .iter()
            .map(|&m| self.pos.move_text(m))
            .collect();
        emit(&format!("Legal moves: {}", texts.join(" ")));
    }
}

/// Milliseconds to spend on this move with `time` left, `inc` per move and `moves_to_go`
/// until the next time control: an even share of the time plus most of the increment,
/// never more than a third of what is left, and a 30 ms margin for the process round trip.
pub fn budget_ms(time: u64, inc: u64, moves_to_go: Option<u64>) -> u64 {
    let share = time / moves_to_go.unwrap_or(30).clamp(1, 50) + inc * 3 / 4;
    share.min(time / 3).saturating_sub(30).max(1)
}

/// An `info` line for a finished iteration.
fn info_line<G: Game>(pos: &G, r: &SearchResult) -> String {
    let score = match r.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", r.score),
    };
    let ms = (r.seconds * 1000.0) as u64;
    let nps = if r.seconds > 0.0 {
        (r.nodes as f64 / r.seconds) as u64
    } else {
        0
    };
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &r.pv {
        pv.push(p.move_text(m));
        p.play_unchecked(m);
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        r.depth,
        r.seldepth,
        r.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::budget_ms;

    #[test]
    fn time_budget() {
        // 60 s, no increment: a thirtieth, less the margin.
        assert_eq!(budget_ms(60_000, 0, None), 1_970);
        // With an increment most of it is used.
        assert_eq!(budget_ms(2_000, 20, None), 66 + 15 - 30);
        // Never more than a third of what is left.
        assert_eq!(budget_ms(300, 1_000, None), 70);
        // One move to go: a third at most.
        assert_eq!(budget_ms(900, 0, Some(1)), 270);
        assert_eq!(budget_ms(0, 0, None), 1);
    }
}

//! Limits of a search: depth, nodes, time and the stop flag.

use super::Searcher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// When to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (the reproducible default for self-play).
    pub nodes: Option<u64>,
    /// Wall-clock budget (not reproducible): the search stops when it is spent.
    pub movetime: Option<Duration>,
    /// With a clock rather than a fixed time per move: once an iteration ends past this, no
    /// other starts (it would likely not finish, and time not spent is kept for later moves).
    /// Without it a `movetime` is searched whole, as UCI's `go movetime` asks: an iteration
    /// cut short still gives its better move.
    pub soft_time: Option<Duration>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// A fixed node budget.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
    /// These limits with a clock's `budget` for this move: the move time is at most the
    /// budget, and no iteration starts after half of it (time not spent stays on the clock).
    pub fn on_clock(self, budget: Duration) -> Limits {
        let hard = self.movetime.map_or(budget, |m| m.min(budget));
        Limits {
            movetime: Some(hard),
            soft_time: Some(hard / 2),
            ..self
        }
    }
}

impl Searcher {
    /// A flag another thread may set to stop the search (checked every 1024 nodes); the
    /// search then returns its best move so far. `None` removes it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop = flag;
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(t) = self.limits.movetime {
                if self.start.elapsed() >= t {
                    self.stopped = true;
                }
            }
            if self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
    }
}

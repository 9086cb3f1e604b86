//! The match layer: the one pair scheduler every command that plays games runs on (`play` and
//! `study`, `sprt`, the piece values' odds games), and the settings it plays with.
//!
//! A match is games `0..n` between engines A and B in colour-swapped pairs: game `2p` has A
//! White, game `2p + 1` B, both from the opening of pair `p`; game `id` gets the seed
//! [`game_seed`]`(master, id)`, its White player that seed and its Black player the seed
//! `^ 1`. The games are handed out in id order to the workers of a thread pool (as
//! tournament managers such as fastchess do) and each finished one goes to an [`Observer`]
//! on the calling thread, as it finishes or in id order; the observer may stop the match
//! (the SPRT does so once decided), and then no further game starts and games still being
//! played are dropped.

use crate::run::config::EngineConfig;
use crate::run::openings::Openings;
use crate::run::play::{play_game, Adjudication, GameOutcome, PlayerSpec, Players, TimeControl};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use variantlab_engine::game::Game;
use variantlab_engine::search::Limits;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, VariantKind};

/// What a match is played with, whichever command plays it: `run.json`'s
/// ([`RunConfig::settings`](crate::run::format::RunConfig::settings)) and `sprt_config.json`'s
/// ([`SprtConfig::settings`](crate::run::sprt::SprtConfig::settings)) settings, typed.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The variant.
    pub variant: VariantKind,
    /// Engine A (White in even games) and engine B.
    pub engines: [EngineConfig; 2],
    /// The limits per move of an engine whose configuration sets none.
    pub limits: Limits,
    /// A clock per game for every player.
    pub tc: Option<TimeControl>,
    /// Master seed.
    pub seed: u64,
    /// The openings spec.
    pub openings: String,
    /// Ply cap and adjudication.
    pub adjudication: Adjudication,
    /// Whether each ply is recorded ([`GameOutcome::moves`]).
    pub record_moves: bool,
}

impl MatchSettings {
    /// Whether these settings fix every game by the seed: no time limit, no external
    /// engine.
    pub fn is_reproducible(&self) -> bool {
        self.limits.movetime.is_none()
            && self.tc.is_none()
            && !self.engines.iter().any(EngineConfig::is_external)
    }

    /// Checks the settings against the variant before any file is written: the openings,
    /// both configurations (piece values, weights) and, for an external engine, that it
    /// starts and plays the variant.
    ///
    /// # Errors
    /// The first problem found, naming the configuration.
    pub fn validate(&self) -> Result<()> {
        with_variant!(self.variant, G => {
            Openings::parse::<G>(&self.openings)?;
            for e in &self.engines {
                e.validate::<G>()?;
            }
        });
        for e in &self.engines {
            e.check_engine(self.variant.name())?;
        }
        Ok(())
    }

    /// Both players set up (external engines started, their standard error appended under the
    /// run folder `dir`) before anything is played.
    ///
    /// # Errors
    /// Those of [`PlayerSpec::new`].
    pub fn players<G: Game>(&self, dir: Option<&Path>) -> Result<[PlayerSpec; 2]> {
        let spec = |c: &EngineConfig| PlayerSpec::new::<G>(c, self.limits, self.tc, dir);
        Ok([spec(&self.engines[0])?, spec(&self.engines[1])?])
    }
}

/// The seed of one game.
pub fn game_seed(master: u64, game_id: u64) -> u64 {
    SplitMix64(master ^ game_id.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next()
}

/// One game's place in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Game id.
    pub id: u64,
    /// Its pair: `id / 2`.
    pub pair: u64,
    /// Its seed ([`game_seed`]).
    pub seed: u64,
}

impl Slot {
    /// Game `id` of the match with master seed `master`.
    pub fn new(master: u64, id: u64) -> Slot {
        Slot {
            id,
            pair: id / 2,
            seed: game_seed(master, id),
        }
    }

    /// Whether engine A is White: in the first game of each pair.
    pub fn a_is_white(&self) -> bool {
        self.id.is_multiple_of(2)
    }

    /// The engines' indices (0 = A, 1 = B) as `[white, black]`.
    pub fn colours(&self) -> [usize; 2] {
        if self.a_is_white() {
            [0, 1]
        } else {
            [1, 0]
        }
    }
}

/// The opening of a game from `openings`: pair `p`'s, drawn with the seed of game `2p`, so
/// both games of a pair start alike.
pub fn pair_opening<G: Game>(openings: &Openings, master: u64, slot: &Slot) -> (G, String) {
    openings.opening::<G>(slot.pair, game_seed(master, slot.pair * 2))
}

/// A finished game.
#[derive(Debug)]
pub struct Played {
    /// Its place in the match.
    pub slot: Slot,
    /// The opening's text.
    pub opening: String,
    /// How it went.
    pub outcome: GameOutcome,
    /// Time taken, opening included.
    pub elapsed: Duration,
}

/// What an observer tells the scheduler after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Play on.
    Continue,
    /// Start no further game.
    Stop,
}

/// Takes each finished game, on the thread that runs the match (writing files, updating
/// statistics and the progress display there).
pub trait Observer {
    /// One finished game.
    ///
    /// # Errors
    /// Ends the match with this error (no further game starts).
    fn game(&mut self, game: Played) -> Result<Flow>;
}

impl<F: FnMut(Played) -> Result<Flow>> Observer for F {
    fn game(&mut self, game: Played) -> Result<Flow> {
        self(game)
    }
}

/// In which order the observer gets the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As they finish.
    Finished,
    /// By id (a game finished early waits for those before it), so what the observer
    /// decides does not depend on the thread count.
    ById,
}

/// A match ready to play: its settings, its two players and where each game starts.
pub struct Match<'a, G> {
    /// The settings (seed, adjudication, recording).
    pub settings: &'a MatchSettings,
    /// Engines A and B.
    pub players: [&'a PlayerSpec; 2],
    /// The start position and opening text of a game (usually [`pair_opening`]).
    pub start: &'a (dyn Fn(&Slot) -> (G, String) + Sync),
}

impl<G: Game> Match<'_, G> {
    /// Plays one game.
    #[allow(clippy::clone_on_copy)] // generic over variants, some of which are not Copy
    pub fn play_one(&self, slot: Slot) -> Played {
        let t = Instant::now();
        let (start, opening) = (self.start)(&slot);
        let [white, black] = slot.colours().map(|i| self.players[i]);
        let (mut w, mut b) = (white.player(slot.seed), black.player(slot.seed ^ 1));
        let players = Players {
            white: &mut w,
            black: &mut b,
        };
        let s = self.settings;
        let outcome = play_game(start.clone(), players, s.adjudication, s.record_moves);
        drop((w, b));
        Played {
            slot,
            opening,
            outcome,
            elapsed: t.elapsed(),
        }
    }

    /// Plays the games of `ids` that `wanted` keeps on `pool`, handing each to `observer` in
    /// `order`, until all are played or the observer stops the match.
    ///
    /// # Errors
    /// The observer's.
    pub fn run(
        &self,
        pool: &rayon::ThreadPool,
        ids: Range<u64>,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        order: Order,
        observer: &mut dyn Observer,
    ) -> Result<()> {
        let next = AtomicU64::new(ids.start);
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Played>();
        let master = self.settings.seed;
        std::thread::scope(|scope| {
            let (next, stop, end) = (&next, &stop, ids.end);
            scope.spawn(move || {
                pool.broadcast(|_| {
                    while !stop.load(Ordering::Relaxed) {
                        let id = next.fetch_add(1, Ordering::Relaxed);
                        if id >= end {
                            break;
                        }
                        if wanted(id) && tx.send(self.play_one(Slot::new(master, id))).is_err() {
                            break;
                        }
                    }
                });
                drop(tx);
            });
            let mut pending = BTreeMap::new();
            let mut expected = ids.clone().filter(|&id| wanted(id));
            let mut waiting = expected.next();
            let mut deliver = |g: Played| -> Result<()> {
                if observer.game(g)? == Flow::Stop {
                    stop.store(true, Ordering::Relaxed);
                }
                Ok(())
            };
            let result = (|| {
                for g in &rx {
                    match order {
                        Order::Finished => deliver(g)?,
                        Order::ById => {
                            pending.insert(g.slot.id, g);
                            while let Some(g) = waiting.and_then(|id| pending.remove(&id)) {
                                deliver(g)?;
                                waiting = expected.next();
                                if stop.load(Ordering::Relaxed) {
                                    break;
                                }
                            }
                        }
                    }
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
                Ok(())
            })();
            // Whatever ended the match, no further game starts; games being played finish
            // and are dropped with the channel.
            stop.store(true, Ordering::Relaxed);
            drop(rx);
            result
        })
    }
}

/// The worker threads of a match (with the searcher's stack size).
///
/// # Errors
/// A pool that cannot be built.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(variantlab_engine::search::THREAD_STACK)
        .build()?)
}

/// A progress display on standard error in the style `template`: a bar of `len` steps, or
/// a spinner without one; hidden with `quiet` or without a terminal.
pub fn progress(quiet: bool, len: Option<u64>, template: &str) -> ProgressBar {
    let shown = !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = match (shown, len) {
        (false, _) => ProgressBar::hidden(),
        (true, Some(n)) => ProgressBar::new(n),
        (true, None) => ProgressBar::new_spinner(),
    };
    let fallback = if len.is_some() {
        ProgressStyle::default_bar()
    } else {
        ProgressStyle::default_spinner()
    };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or(fallback));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use variantlab_engine::position::Position;
    use variantlab_engine::variants::Chess;

    type G = Position<Chess>;

    fn settings() -> MatchSettings {
        let default = EngineConfig::default_named();
        MatchSettings {
            variant: VariantKind::Chess,
            engines: [default.clone(), default],
            limits: Limits::nodes(50),
            tc: None,
            seed: 3,
            openings: "random-plies:2".into(),
            adjudication: Adjudication {
                max_plies: 12,
                resign: None,
                draw: None,
            },
            record_moves: false,
        }
    }

    /// The games of `ids` that `wanted` keeps, on `threads` threads, as the observer got
    /// them, stopping after `stop_after` games.
    fn observed(
        threads: usize,
        ids: Range<u64>,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        order: Order,
        stop_after: usize,
    ) -> Vec<(Slot, String, u32)> {
        let s = settings();
        let openings = Openings::parse::<G>(&s.openings).unwrap();
        let players = s.players::<G>(None).unwrap();
        let start = |slot: &Slot| pair_opening::<G>(&openings, s.seed, slot);
        let m = Match {
            settings: &s,
            players: [&players[0], &players[1]],
            start: &start,
        };
        let mut seen = Vec::new();
        m.run(
            &pool(threads).unwrap(),
            ids,
            wanted,
            order,
            &mut |g: Played| {
                seen.push((g.slot, g.opening, g.outcome.plies));
                Ok(if seen.len() >= stop_after {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            },
        )
        .unwrap();
        seen
    }

    /// Each game has its seed, its pair's opening and its colours whatever the thread count
    /// and order; in id order a stop after the fourth game delivers games 0 to 3 only.
    #[test]
    fn games_keep_their_seeds_openings_and_colours() {
        let slot = Slot::new(3, 5);
        assert_eq!((slot.pair, slot.colours()), (2, [1, 0]));
        assert_eq!(slot.seed, game_seed(3, 5));
        assert_eq!(Slot::new(3, 4).colours(), [0, 1]);

        let all = observed(1, 0..8, &|_| true, Order::ById, usize::MAX);
        assert_eq!(
            all.iter().map(|g| g.0.id).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        for pair in all.chunks(2) {
            assert_eq!(pair[0].1, pair[1].1, "both games of a pair start alike");
        }
        let mut finished = observed(2, 0..8, &|id| id != 5, Order::Finished, usize::MAX);
        finished.sort_by_key(|g| g.0.id);
        let kept: Vec<_> = all.iter().filter(|g| g.0.id != 5).cloned().collect();
        assert_eq!(finished, kept);

        let stopped = observed(2, 0..8, &|_| true, Order::ById, 4);
        assert_eq!(stopped, all[..4].to_vec());
    }
}

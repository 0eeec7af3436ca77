//! Search: what runs behind `go`. A [`Searcher`] is owned by the engine
//! and moved onto the search thread for each `go`; it dispatches to the
//! player chosen with the `Player` option and reports through a callback,
//! so that info lines are testable without a process.

pub mod bench;
pub mod time;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::action::Action;
use crate::bench::rng;
use crate::players::{Choice, PlayerKind, greedy, random};
use crate::position::Position;
use crate::protocol::{Go, Info, Response, Score};

/// Search settings from the options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchConfig {
    /// Which player.
    pub player: PlayerKind,
    /// Search threads.
    pub threads: usize,
    /// Memory cap for the search tree, MiB.
    pub hash_mb: usize,
    /// Seed of this search (already resolved from the `Seed` option).
    pub seed: u64,
    /// Milliseconds kept back from every move for communication.
    pub move_overhead: u64,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig { player: PlayerKind::Greedy, threads: 1, hash_mb: 64, seed: 1, move_overhead: 30 }
    }
}

/// Flags the engine loop sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible and answer.
    pub stop: AtomicBool,
    /// The opponent played the pondered move: switch to normal timing.
    pub ponderhit: AtomicBool,
    /// Set by the worker when its job is over, just before its last lines.
    pub done: AtomicBool,
}

impl Control {
    /// Whether `stop` was received.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether `ponderhit` was received.
    pub fn ponder_hit(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
}

/// What a search answers.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen action, `None` when there is no legal action.
    pub best: Option<Action>,
    /// The expected reply, if the player has one.
    pub ponder: Option<Action>,
    /// The last info line sent.
    pub info: Info,
}

/// Maps a material-like evaluation (centipawns) to win/draw/loss per mille
/// for players without a game-result estimate.
pub fn wdl_from_cp(cp: f32) -> (u32, u32, u32) {
    let w = (1000.0 / (1.0 + (-cp / 400.0).exp())).round() as u32;
    (w.min(1000), 0, 1000 - w.min(1000))
}

/// The searcher: one per engine, kept between searches.
#[derive(Debug, Default)]
pub struct Searcher {}

impl Searcher {
    /// A fresh searcher.
    pub fn new() -> Searcher {
        Searcher {}
    }

    /// Forgets everything learned from earlier searches (`newgame`).
    pub fn clear(&mut self) {}

    /// Searches `pos` under the limits of `go`, reporting info lines through
    /// `report`, and returns the answer. Returns when its limits are reached
    /// or `control.stop` is set; with `infinite` or `ponder` it never
    /// answers before `stop` (or, pondering, `ponderhit`).
    pub fn go(
        &mut self,
        pos: &Position,
        go: &Go,
        cfg: &SearchConfig,
        control: &Control,
        report: &mut dyn FnMut(Response),
    ) -> SearchResult {
        let start = Instant::now();
        let mut r = rng(cfg.seed);
        let choice = match cfg.player {
            PlayerKind::Random => random::choose(pos, &mut r),
            PlayerKind::Greedy | PlayerKind::Mcts => greedy::choose(pos, &mut r),
        };
        let info = one_shot_info(choice, start.elapsed());
        report(Response::Info(info.clone()));
        wait_for_release(go, control, &info, report);
        SearchResult { best: choice.map(|c| c.action), ponder: None, info }
    }
}

fn one_shot_info(choice: Option<Choice>, elapsed: Duration) -> Info {
    let nodes = choice.map_or(0, |c| c.nodes);
    let ms = elapsed.as_millis() as u64;
    let cp = choice.map_or(0.0, |c| c.score).clamp(-10_000.0, 10_000.0);
    Info {
        depth: Some(1),
        seldepth: Some(1),
        nodes: Some(nodes),
        nps: Some(nodes * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(Score { cp: cp.round() as i32, wdl: Some(wdl_from_cp(cp)) }),
        hashfull: None,
        pv: choice.map(|c| vec![c.action]).unwrap_or_default(),
    }
}

/// Holds the answer of an instant player while `go infinite` or `go ponder`
/// is in force, repeating the info line every second.
fn wait_for_release(go: &Go, control: &Control, info: &Info, report: &mut dyn FnMut(Response)) {
    let mut last = Instant::now();
    loop {
        let released = control.stopped() || !(go.infinite || go.ponder && !control.ponder_hit());
        if released {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
        if last.elapsed() >= Duration::from_secs(1) {
            report(Response::Info(info.clone()));
            last = Instant::now();
        }
    }
}
